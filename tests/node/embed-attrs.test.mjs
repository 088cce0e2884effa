// embed-attrs.test.mjs — the parsers of <minipbd-scene>'s model-viewer-like attributes (web/js/embed/attrs.js) and the
// demo's embed code (web/js/panel/embed-code.js), without a browser: units, auto, ranges, refused schemes, and that
// what "Copy embed code" writes reads back as the same camera.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCameraOrbit, parseCameraTarget, parseFieldOfView, parsePosterUrl, parseLoading, parseControls, cameraWith,
  formatCameraOrbit, formatCameraTarget, formatFieldOfView, orbitOf, htmlAttr } from '../../web/js/embed/attrs.js';
import { embedCode } from '../../web/js/panel/embed-code.js';

const DEG = Math.PI / 180;

test('camera-orbit: deg, rad (bare), m, cm, mm and auto; out of range and malformed values refused with the reason', () => {
  assert.deepEqual(parseCameraOrbit('30deg 75deg 4m').value, { theta: 30 * DEG, phi: 75 * DEG, radius: 4 });
  assert.deepEqual(parseCameraOrbit('  0.5  1.2RAD 250cm ').value, { theta: 0.5, phi: 1.2, radius: 2.5 });
  assert.deepEqual(parseCameraOrbit('auto auto 1500mm').value, { theta: null, phi: null, radius: 1.5 });
  assert.match(parseCameraOrbit('30deg 75deg').error, /needs 3 values/);
  assert.match(parseCameraOrbit('30px 75deg 4m').error, /θ "30px" is not an angle/);
  assert.match(parseCameraOrbit('30deg 75deg 4km').error, /r "4km" is not a distance/);
  assert.match(parseCameraOrbit('30deg 180deg 4m').error, /φ must be within/);
  assert.match(parseCameraOrbit('30deg 75deg 0m').error, /r must be within/);
  assert.match(parseCameraOrbit('1e999 1 1').error, /not an angle/);
  assert.match(parseCameraOrbit('x'.repeat(300)).error, /300 characters long/);
});

test('camera-target and field-of-view', () => {
  assert.deepEqual(parseCameraTarget('0 1.2 -3').value, { x: 0, y: 1.2, z: -3 });
  assert.deepEqual(parseCameraTarget('10cm auto -2mm').value, { x: 0.1, y: null, z: -0.002 });
  assert.match(parseCameraTarget('1 2').error, /needs 3 values/);
  assert.match(parseCameraTarget('1 2 1e5').error, /within ±10000m/);
  assert.equal(parseFieldOfView('45deg').value, 45);
  assert.ok(Math.abs(parseFieldOfView('1rad').value - 1 / DEG) < 1e-9);
  assert.equal(parseFieldOfView('auto').value, null);
  assert.match(parseFieldOfView('5deg').error, /within 10deg\.\.120deg/);
});

test('cameraWith puts the attributes over the scene camera; orbitOf and the formatters read it back', () => {
  const base = { target: [0, 1.7, 0], yaw: 0.25, pitch: 0.12, distance: 7, fov: 45 };
  const cam = cameraWith(base, { orbit: { theta: null, phi: 90 * DEG, radius: 3 }, target: { x: 1, y: null, z: null }, fov: 60 });
  assert.deepEqual(cam, { target: [1, 1.7, 0], yaw: 0.25, pitch: 0, distance: 3, fov: 60 });
  assert.deepEqual(base.target, [0, 1.7, 0], 'the scene camera is not changed');
  const user = { target: [0.2, 1.4, -0.1], yaw: 7.1, pitch: -0.3, distance: 5.2, fov: 45 }; // yaw wound past 2π
  const back = cameraWith({}, { orbit: parseCameraOrbit(formatCameraOrbit(user)).value, target: parseCameraTarget(formatCameraTarget(user)).value,
    fov: parseFieldOfView(formatFieldOfView(user)).value });
  const a = orbitOf(back), b = orbitOf(user);
  for (const k of ['theta', 'phi', 'radius']) assert.ok(Math.abs(a[k] - b[k]) < 1e-3, `${k}: ${a[k]} vs ${b[k]}`);
  assert.deepEqual(back.target, user.target);
  assert.equal(back.fov, 45);
});

test('poster URLs: http(s), relative and data:image only', () => {
  assert.equal(parsePosterUrl('img/p.png', 'https://example.org/a/').value, 'https://example.org/a/img/p.png');
  assert.equal(parsePosterUrl('https://cdn.example/p.jpg', 'https://example.org/').value, 'https://cdn.example/p.jpg');
  assert.equal(parsePosterUrl('data:image/png;base64,AAAA', 'https://example.org/').value, 'data:image/png;base64,AAAA');
  for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,<script>', 'blob:https://x/1', 'file:///etc/passwd', 'ftp://x/p.png']) {
    assert.ok(parsePosterUrl(bad, 'https://example.org/').error, `${bad} refused`);
  }
});

test('loading and controls', () => {
  assert.deepEqual([null, 'lazy', 'EAGER', 'auto'].map((v) => parseLoading(v).value), ['auto', 'lazy', 'eager', 'auto']);
  assert.match(parseLoading('soon').error, /auto, lazy, eager/);
  assert.deepEqual([null, 'none', 'auto'].map((v) => parseControls(v).value), ['auto', 'none', 'auto']);
  assert.match(parseControls('off').error, /auto, none/);
});

test('the embed code: absolute URLs from the demo\'s address, the camera as attributes, names escaped', () => {
  const { element, iframe, code } = embedCode({ pageUrl: 'https://example.org/pbd/index.html?lang=zh#s=1.old', fragment: 's=1.abc',
    camera: { target: [0, 1, 0], yaw: 0.5, pitch: 0.25, distance: 4, fov: 45 }, title: 'A "b" <img src=x>' });
  assert.equal(element, '<script type="module" src="https://example.org/pbd/js/embed.js"></script>\n'
    + '<minipbd-scene src="https://example.org/pbd/index.html#s=1.abc" camera-orbit="28.65deg 75.68deg 4m" camera-target="0m 1m 0m" '
    + 'field-of-view="45deg" width="640" height="400"></minipbd-scene>');
  assert.equal(iframe, '<iframe src="https://example.org/pbd/embed.html#s=1.abc" width="640" height="400" '
    + 'title="A &quot;b&quot; &lt;img src=x&gt;" loading="lazy" style="border: 0"></iframe>');
  assert.equal(code, `${element}\n\n${iframe}\n`);
  assert.equal(htmlAttr('&"<>'), '&amp;&quot;&lt;&gt;');
});
