#version 300 es
precision highp float;
// Glass colliders (a scene's `glass: true`, e.g. a tank's walls): drawn after everything opaque and after the water,
// blended (premultiplied: dst * (1 - a) + o.rgb), depth tested without writing depth, so what is behind shows
// through. Per surface: Schlick's Fresnel (1994, F0 = 0.04 for glass) between a little tinted body colour and the
// sky's reflection (sky.frag's gradient, the floor's colour below the horizon) with the key light's highlight:
// nearly clear face-on, brighter and more opaque toward grazing angles. A box's edges are drawn as a thin denser
// band (seen edge-on, a pane is metres of glass deep: that green line is how one sees a glass tank).
uniform vec3 u_eye;
uniform vec3 u_lightDir;
uniform vec3 u_skyTop;                   // sRGB, as sky.frag writes them
uniform vec3 u_skyHorizon;
uniform vec3 u_floorColor;               // sRGB: what a pane reflects below the horizon
uniform vec3 u_tint;                     // sRGB: the glass's own colour (the faint green of float glass)
uniform vec3 u_edgeTint;                 // sRGB: its colour seen edge-on
uniform float u_opacity;                 // face-on coverage of one surface
uniform float u_edgeWidth;               // metres: the band along a box's edges (0: not a box)
uniform vec3 u_scale;                    // the box's half extents
uniform float u_held;                    // 0..1
in vec3 v_world;
in vec3 v_normal;
in vec3 v_local;
in vec3 v_localNormal;
out vec4 o_color;

void main() {
  vec3 n = normalize(v_normal);
  vec3 v = normalize(u_eye - v_world);
  if (dot(n, v) < 0.0) n = -n;           // the far faces, seen from inside the collider, face the eye too
  float cosTheta = clamp(dot(n, v), 0.0, 1.0);
  float fresnel = 0.04 + 0.96 * pow(1.0 - cosTheta, 5.0);
  vec3 r = reflect(-v, n);
  vec3 reflected = r.y >= 0.0 ? mix(u_skyHorizon, u_skyTop, smoothstep(-0.05, 0.6, r.y)) : u_floorColor;
  float spec = pow(max(dot(r, u_lightDir), 0.0), 200.0) * 0.9;

  // Distance to the nearest edge of this face of the box: the smaller margin along the face's two own axes.
  float edge = 0.0;
  if (u_edgeWidth > 0.0) {
    vec3 margin = u_scale - abs(v_local);
    vec3 an = abs(v_localNormal);       // 0 on the face's two axes, 1 on its normal's
    float dist = 1e9;
    if (an.x < 0.5) dist = min(dist, margin.x);
    if (an.y < 0.5) dist = min(dist, margin.y);
    if (an.z < 0.5) dist = min(dist, margin.z);
    float px = fwidth(dist);
    float band = max(u_edgeWidth, px);
    edge = 1.0 - smoothstep(band, band + px, dist);
  }

  vec3 tint = mix(u_tint, vec3(1.0), u_held * 0.5);
  float body = mix(u_opacity, 0.55, edge) * (1.0 - fresnel);
  vec3 bodyColor = mix(tint, u_edgeTint, edge);
  float a = clamp(body + fresnel * 0.9, 0.0, 1.0);
  vec3 c = bodyColor * body + reflected * fresnel * 0.9 + vec3(spec);
  o_color = vec4(min(c, vec3(1.0)), a);
}
