#version 300 es
precision highp float;
// Composite of the screen-space fluid (van der Laan, Green & Sainz 2009, section 4; Green, GDC 2010) over the
// opaque scene, which was drawn to a texture first. Per pixel: the smoothed fluid depth (half resolution) is
// turned back into an eye-space point and its normal is rebuilt from the neighbouring texels (the smaller of
// the two one-sided differences, so silhouettes do not bend normals); the fluid shows only where it is nearer
// than the scene (its depth buffer, linearised). Its colour is Fresnel (Schlick 1994, F0 = 0.02 for water) of
// the sky's reflection (the same gradient as sky.frag) and the refracted scene behind (sampled offset by the
// normal), attenuated by Beer-Lambert absorption exp(-k T) over the thickness T (fluid_thickness.frag), with
// the absorbed light partly scattered back as the deep-water colour. It writes the depth of what it shows (the
// scene's, or the water's where it is nearer) so the glass drawn after it is depth tested against both.
uniform sampler2D u_scene;               // opaque scene colour, as written to the screen (sRGB)
uniform sampler2D u_sceneDepth;          // its window depth, [0, 1]
uniform sampler2D u_fluidDepth;          // smoothed positive eye depth, 0 = no fluid
uniform sampler2D u_thickness;           // metres of water along the view ray
uniform mat4 u_proj;
uniform mat4 u_invView;
uniform vec3 u_skyTop;                   // sRGB, as sky.frag writes them
uniform vec3 u_skyHorizon;
uniform vec3 u_lightDir;                 // world, unit, toward the light
uniform vec3 u_absorb;                   // Beer-Lambert coefficients, 1/m, per channel
uniform vec3 u_deepColor;                // linear: what the water scatters back
uniform float u_refraction;              // uv offset per unit normal and metre of thickness
uniform float u_edgeDepth;               // metres: a neighbour deeper or nearer than this is another surface
in vec2 v_uv;
out vec4 o_color;

vec3 toLinear(vec3 c) { return pow(c, vec3(2.2)); }

vec3 eyePoint(vec2 uv, float d) {
  vec2 ndc = uv * 2.0 - 1.0;
  return vec3(ndc.x * d / u_proj[0][0], ndc.y * d / u_proj[1][1], -d);
}

vec3 sky(vec3 dir) {   // sky.frag's gradient
  float t = smoothstep(-0.05, 0.6, dir.y);
  return mix(u_skyHorizon, u_skyTop, t);
}

void main() {
  ivec2 fsize = textureSize(u_fluidDepth, 0);
  ivec2 p = clamp(ivec2(v_uv * vec2(fsize)), ivec2(0), fsize - 1);
  float d = texelFetch(u_fluidDepth, p, 0).r;
  vec4 scene = texture(u_scene, v_uv);
  float ndcScene = texture(u_sceneDepth, v_uv).r * 2.0 - 1.0;
  float dScene = u_proj[3][2] / (ndcScene + u_proj[2][2]);   // eye depth of the scene (camera.js perspective)
  if (d <= 0.0 || d >= dScene) { o_color = scene; gl_FragDepth = ndcScene * 0.5 + 0.5; return; }
  // The water's window depth, for what is drawn over the composite (glass): eye depth d back through u_proj.
  gl_FragDepth = clamp(((u_proj[2][2] * -d + u_proj[3][2]) / d) * 0.5 + 0.5, 0.0, 1.0);

  vec2 texel = 1.0 / vec2(fsize);
  vec3 P = eyePoint((vec2(p) + 0.5) * texel, d);
  vec3 dx = vec3(0.0), dy = vec3(0.0);
  float best = 1e30;
  for (int s = -1; s <= 1; s += 2) {
    ivec2 q = clamp(p + ivec2(s, 0), ivec2(0), fsize - 1);
    float dq = texelFetch(u_fluidDepth, q, 0).r;
    if (dq > 0.0 && abs(dq - d) < min(best, u_edgeDepth)) { best = abs(dq - d); dx = float(s) * (eyePoint((vec2(q) + 0.5) * texel, dq) - P); }
  }
  best = 1e30;
  for (int s = -1; s <= 1; s += 2) {
    ivec2 q = clamp(p + ivec2(0, s), ivec2(0), fsize - 1);
    float dq = texelFetch(u_fluidDepth, q, 0).r;
    if (dq > 0.0 && abs(dq - d) < min(best, u_edgeDepth)) { best = abs(dq - d); dy = float(s) * (eyePoint((vec2(q) + 0.5) * texel, dq) - P); }
  }
  vec3 nEye = cross(dx, dy);
  // A lone texel, or one whose neighbours along a direction all belong to another surface (a drop in front of the
  // pool: its steep step would read as a grazing normal and flash white with the sky), faces the eye.
  nEye = dot(nEye, nEye) > 0.0 ? normalize(nEye) : vec3(0.0, 0.0, 1.0);
  if (nEye.z < 0.0) nEye = -nEye;

  mat3 toWorld = mat3(u_invView);
  vec3 n = normalize(toWorld * nEye);
  vec3 view = normalize(toWorld * P);                  // eye -> point, world
  float cosTheta = clamp(dot(n, -view), 0.0, 1.0);
  float fresnel = 0.02 + 0.98 * pow(1.0 - cosTheta, 5.0);

  vec3 r = reflect(view, n);
  vec3 reflected = toLinear(sky(r)) + vec3(pow(max(dot(r, u_lightDir), 0.0), 120.0)) * 1.5;

  float T = texture(u_thickness, v_uv).r;
  vec2 uvBehind = clamp(v_uv + nEye.xy * u_refraction * min(T, 0.2), vec2(0.0), vec2(1.0));
  vec3 behind = toLinear(texture(u_scene, uvBehind).rgb);
  vec3 transmit = exp(-u_absorb * T);
  vec3 refracted = behind * transmit + u_deepColor * (1.0 - transmit);

  vec3 c = mix(refracted, reflected, fresnel);
  o_color = vec4(pow(c, vec3(1.0 / 2.2)), 1.0);
}
