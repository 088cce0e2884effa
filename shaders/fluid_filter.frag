#version 300 es
precision highp float;
// One direction of the separable bilateral depth filter (van der Laan et al. 2009, section 3.2; Green, GDC 2010
// "Screen Space Fluid Rendering for Games": a separable bilateral Gaussian is not exact, but is what makes it
// cheap). The kernel covers u_worldRadius metres at the pixel's own depth with a fixed number of taps whatever
// the distance (so the cost is fixed); a neighbour's weight falls off with its depth difference (range kernel),
// so the silhouette against what is behind is kept, and pixels with no fluid (0) never take part.
uniform sampler2D u_depth;               // R32F eye depth, 0 = no fluid (read with texelFetch: no float filtering)
uniform ivec2 u_dir;                     // (1, 0) or (0, 1)
uniform float u_worldRadius;             // filter radius, metres
uniform float u_pixelScale;              // this target's height in px * proj[1][1] / 2
uniform float u_depthFalloff;            // metres: range kernel's standard deviation
uniform float u_maxRadiusPx;
out float o_depth;
const int TAPS = 8;                      // each side of the centre
void main() {
  ivec2 size = textureSize(u_depth, 0);
  ivec2 p = ivec2(gl_FragCoord.xy);
  float z = texelFetch(u_depth, p, 0).r;
  if (z <= 0.0) {
    // A pinhole between the splats (fluid within two texels on both sides, along this direction): filled with
    // the nearer side's depth, else the floor behind the pool shows through it as a bright speck.
    float a = 0.0, b = 0.0;
    for (int k = 2; k >= 1; k--) {
      float s0 = texelFetch(u_depth, clamp(p - u_dir * k, ivec2(0), size - 1), 0).r;
      float s1 = texelFetch(u_depth, clamp(p + u_dir * k, ivec2(0), size - 1), 0).r;
      if (s0 > 0.0) a = s0;
      if (s1 > 0.0) b = s1;
    }
    o_depth = a > 0.0 && b > 0.0 && abs(a - b) < u_depthFalloff ? min(a, b) : 0.0;
    return;
  }
  float radiusPx = min(u_worldRadius * u_pixelScale / z, u_maxRadiusPx);
  if (radiusPx < 1.0) { o_depth = z; return; }
  float stepPx = radiusPx / float(TAPS);
  float sigma = radiusPx * 0.5;
  float invTwoSigma2 = 1.0 / (2.0 * sigma * sigma);
  float invTwoFalloff2 = 1.0 / (2.0 * u_depthFalloff * u_depthFalloff);
  float sum = z;
  float wsum = 1.0;
  for (int i = -TAPS; i <= TAPS; i++) {
    if (i == 0) continue;
    float t = float(i) * stepPx;
    ivec2 q = clamp(p + u_dir * int(floor(t + 0.5)), ivec2(0), size - 1);
    float s = texelFetch(u_depth, q, 0).r;
    if (s <= 0.0) continue;
    float dz = s - z;
    float w = exp(-t * t * invTwoSigma2 - dz * dz * invTwoFalloff2);
    sum += s * w;
    wsum += w;
  }
  o_depth = sum / wsum;
}
