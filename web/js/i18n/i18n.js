// i18n.js — the page's words in English and Simplified Chinese: one table per language and t(key, vars).
//
// The language comes from the URL query (?lang=en or ?lang=zh, which wins) or else from the browser's
// preferred languages (navigator.languages), else English. Strings are plain text: callers put them in
// the page with textContent or setAttribute, never as HTML, and so are the values filled into {slots}
// (which may come from links: scene and object names, error messages).
//
// No DOM here, so Node can import it (tests/browser/i18n.test.mjs checks the tables). Each object type brings its
// own strings (objects/, e.g. a cloth's stiffness sliders), merged in here.

import { objectStrings } from '../objects/index.js';
import { buildStrings } from './build-strings.js';
import { embedStrings } from './embed-strings.js';
import { dataStrings } from './data-strings.js';
import { galleryStrings } from './gallery-strings.js';
import { sceneNames } from './scene-names.js';
import { LANGUAGES, normalizeLanguage } from './languages.js';

// Each area's own table (one file each), after the page's own.
const AREA_STRINGS = [buildStrings, embedStrings, dataStrings, galleryStrings, sceneNames];

export { LANGUAGES, normalizeLanguage };

/** Each language's name in itself, for the language picker. */
export const LANGUAGE_NAMES = { en: 'English', zh: '简体中文' };

/** The BCP 47 tag for <html lang> and number formatting. */
export const HTML_LANG = { en: 'en', zh: 'zh-CN' };

const en = {
  'page.title': 'MiniPBD — Position Based Dynamics in the browser',
  'page.description': 'MiniPBD: cloth, ropes, soft and rigid bodies simulated with Position Based Dynamics in WebAssembly. Drag them, tune the solver, drop in your own model, share a link.',
  'page.loading': 'Loading…',
  'view.label': 'Simulation view. Drag the cloth, a rope or a body to pull it, drag a ball, pole or table to move it, drop an .obj model or a .json scene file to open it, drag empty space to orbit, scroll or pinch to zoom, arrow keys orbit. Space pauses or resumes, period steps once while paused, R resets.',
  'hint': 'Drag cloth, rope or a body to pull it · drag a collider to slide it (Shift: up and down) · drag the background to orbit · scroll or pinch to zoom · drop an .obj or .json file · Space pause · . step · R reset',
  'message.dismiss': 'Dismiss message',

  'panel.label': 'Simulation controls',
  'panel.title': 'Controls',
  'scene': 'Scene',
  'scene.fromLink': 'From link: {name}',
  'scene.untitled': 'Untitled scene',
  'pause': 'Pause',
  'resume': 'Resume',
  'step': 'Step',
  'reset': 'Reset',
  'language': 'Language',

  'readout.label': 'Simulation statistics',
  'readout.steps': 'Steps',
  'readout.particles': 'Particles',
  'readout.constraints': 'Constraints',
  'readout.stepTime': 'Step time',
  'readout.ms': 'ms',

  'folder.solver': 'Solver',
  'folder.stiffness': 'Stiffness',
  'folder.mass': 'Mass per particle (g)',
  'folder.contacts': 'Ground and contacts',
  'folder.colliders': 'Colliders',
  'folder.wind': 'Wind',
  'folder.view': 'View',
  'folder.share': 'Share',
  'folder.keys': 'Keyboard shortcuts',

  'param.dt': 'Time step (ms)',
  'param.dt.help': 'Simulated time per step; the page takes as many steps as real time needs',
  'param.substeps': 'Substeps',
  'param.substeps.help': 'Substeps per time step',
  'param.iterations': 'Passes',
  'param.iterations.help': 'Constraint solver passes per substep',
  'param.damping': 'Damping (/s)',
  'param.damping.help': 'Velocity damping per second',
  'param.maxSpeed': 'Speed limit (m/s)',
  'param.maxSpeed.help': 'No particle moves faster than this; it keeps violent drags stable, and a low limit makes everything move in slow motion',
  'param.gravityX': 'Gravity x (m/s²)',
  'param.gravityX.help': 'Gravity along x (sideways)',
  'param.gravityY': 'Gravity y (m/s²)',
  'param.gravityY.help': 'Gravity along y (up); Earth is −9.81',
  'param.gravityZ': 'Gravity z (m/s²)',
  'param.gravityZ.help': 'Gravity along z (toward the viewer)',
  'param.ground': 'Ground',
  'param.ground.help': 'A floor that particles rest on',
  'param.groundHeight': 'Ground height (m)',
  'param.groundHeight.help': 'Height of the floor',
  'param.restitution': 'Ground bounce',
  'param.restitution.help': 'Restitution: the share of the approach speed a particle keeps when it bounces off the ground',
  'param.staticFriction': 'Static friction',
  'param.staticFriction.help': 'Ground friction that holds a resting particle in place',
  'param.kineticFriction': 'Kinetic friction',
  'param.kineticFriction.help': 'Ground friction that slows a sliding particle',
  'param.thickness': 'Thickness (cm)',
  'param.thickness.help': 'Particle thickness: the distance kept from colliders, the ground and (with self-collision) other particles',
  'param.collisions': 'Objects collide',
  'param.collisions.help': 'Particles of different objects (a rope and a cloth, two cloths) keep the thickness apart',
  'mass.help': 'Mass of each particle of this object in grams; pinned particles and the scene’s mass ranges keep theirs',
  'collider.staticFriction': 'Static friction',
  'collider.staticFriction.help': 'Friction of this collider that holds a resting particle in place',
  'collider.kineticFriction': 'Kinetic friction',
  'collider.kineticFriction.help': 'Friction of this collider that slows a sliding particle',
  'collider.restitution': 'Bounce',
  'collider.restitution.help': 'Restitution: the share of the approach speed a particle keeps when it bounces off this collider',

  'view.particles': 'Show particles',
  'view.heatMap': 'Error heat map (blue 0, red ≥ 10%)',
  'view.plots': 'Convergence and energy plots',
  'view.velocityArrows': 'Velocity arrows',
  'view.water': 'Water (off: fluid as particles)',
  'view.waterUnavailable': 'Water unavailable here ({reason}): fluid drawn as particles',
  'notice.waterFallback': 'This browser cannot draw the water surface ({reason}); the fluid is drawn as particles.',
  'plot.convergence': 'Mean constraint error after each solver pass of the last step',
  'plot.energy': 'Kinetic and potential energy over the last 30 seconds',
  'plot.convergenceLabel': 'mean error per pass (log), {n} passes',
  'plot.last': 'last {value}%',
  'plot.energyLabel': 'kinetic (red), potential (blue), J',
  'plot.flatNote': 'One pass per substep: each point comes after a new substep, so the curve stays flat. Raise Passes (Solver) to watch the error fall within a substep.',

  'share.note': 'The link holds the scene, these settings and the camera view.',
  'share.copy': 'Copy link',
  'share.field': 'Link',
  'share.placeholder': 'Press Copy link to make a link',
  'share.copied': 'Copied to the clipboard.',
  'share.selectToCopy': 'Select the link above to copy it.',
  'share.long': ' It is {n} characters long; some sites may cut it.',
  'share.copyEmbed': 'Copy embed code',
  'share.embedField': 'Embed code (HTML for another page)',
  'share.embedCopied': 'Embed code copied: an element with its script tag, and an iframe. Paste either into a page.',
  'share.embedSelect': 'Select the code above to copy it.',

  'record.start': 'Record',
  'record.start.help': 'Restart the scene and record what you do to it; the link made at the end replays it',
  'record.stop': 'Stop and make link',
  'record.stop.help': 'Stop recording and make a link that replays what was recorded',
  'record.endReplay': 'End replay',
  'record.endReplay.help': 'Stop replaying the recording and take over',
  'record.recording': 'Recording from the start of the scene: drag the cloth or a collider, then press Stop.',
  'record.discarded': 'Recording discarded: the scene was replaced.',
  'record.unusable': 'The recording could not be used: {error}',
  'record.done': 'Recorded {steps} steps ({seconds} s, {grabs}): the link replays them.',
  'record.grabs.one': '1 grab',
  'record.grabs.other': '{n} grabs',
  'record.noLink': 'Recorded {steps} steps, but no link could be made (see the message).',
  'record.limitSteps': ' It stopped at the limit of {n} steps.',
  'record.limitEvents': ' It stopped at the limit of {n} events.',
  'record.because': ' It stopped because {reason}.',
  'record.cause.position': 'setting a particle position cannot be recorded',
  'record.cause.velocity': 'setting a particle velocity cannot be recorded',
  'record.cause.mass': 'changing masses cannot be recorded',
  'record.cause.param': 'the parameter {name} cannot be recorded with the value {value}',
  'record.cause.call': '{name} was called with values a replay cannot carry',
  'replay.playing': 'Replaying a recording of {steps} steps ({seconds} s).',
  'replay.failed': 'The replay stopped after {done} of {total} steps: {error}',
  'replay.stopped': 'Replay ended after {done} of {total} steps; the simulation goes on without it.',
  'replay.stoppedBecause': 'Replay ended after {done} of {total} steps ({cause}); the simulation goes on without it.',
  'replay.cause.setting': 'a setting was changed',
  'replay.cause.collider': 'a collider was changed',
  'replay.cause.particle': 'a particle was changed',
  'replay.exact': 'Replay finished after {steps} steps, in exactly the state that was recorded.',
  'replay.differs': 'Replay finished after {steps} steps, but not in the state that was recorded (the link was probably made with another version of the engine).',
  'replay.finished': 'Replay finished after {steps} steps.',

  'keys.space': 'Space',
  'keys.pause': 'Pause or resume',
  'keys.period': '.',
  'keys.step': 'One step (while paused)',
  'keys.r': 'R',
  'keys.reset': 'Reset the scene',
  'keys.arrows': '← ↑ → ↓',
  'keys.orbit': 'Orbit (on the view)',
  'keys.plusMinus': '+ −',
  'keys.zoom': 'Zoom (on the view)',
  'keys.note': 'Shortcuts wait while you type in a field.',

  'footer': 'Position Based Dynamics in C, compiled to WebAssembly with SIMD; drawn with WebGL2.',

  'desc.running': 'Running',
  'desc.paused': 'Paused',
  'desc.text': '{scene}. {particles} particles, {constraints} constraints. {state}. {held}',
  'desc.nothingHeld': 'Nothing is held.',
  'desc.held': 'Held: {list}.',
  'desc.particles.one': '1 particle',
  'desc.particles.other': '{n} particles',
  'desc.listSeparator': ', ',

  'notice.pauseToStep': 'Pause first (Space), then step one at a time with the period key.',
  'notice.contextLost': 'Graphics were reset by the browser; the simulation keeps running.',
  'error.param': '{label} could not be set: {error}',
  'error.mass': 'The mass of {name} could not be set: {error}',
  'error.collider': 'The material of {name} could not be set: {error}',
  'error.record': 'The recording could not start: {error}',
  'error.scene': 'The scene could not be started: {error}',
  'error.link': 'This link could not be opened: {error}',
  'error.makeLink': 'A link could not be made for this scene: {error}',
  'error.stopped': 'The simulation stopped: {error}',
  'error.start': 'The demo could not start: {error}',

  'folder.bodies': 'Bodies',
  'folder.files': 'Scene files and models',
  'files.note': 'Drop an .obj model or a .json scene file on the view, or open one here.',
  'files.download': 'Download scene',
  'files.open': 'Open scene or model…',
  'files.type': 'Models become',
  'files.type.help': 'What an opened or dropped .obj model becomes: a soft body (tetrahedra keeping their edges and volume) or a rigid body (shape matching)',
  'files.resolution': 'Model resolution',
  'files.resolution.help': 'Lattice cells along a model\'s longest side: more follow its shape more closely and cost more',
  'body.mass': 'Mass (kg)',
  'body.mass.help': 'The whole body\'s mass, spread evenly over its particles (its pins keep none)',
  'share.tooLarge': 'This scene holds a mesh too large for a link: use Download scene to save it as a file.',
  'notice.modelAdded': 'Added {name} ({kind}).',
  'notice.sceneOpened': 'Opened {name}.',
  'error.model': 'The model {name} could not be added: {error}',
  'error.open': 'The file {name} could not be opened: {error}',
  'error.fileKind': '{name} is neither an .obj model nor a .json scene file.',
  'error.download': 'The scene could not be saved: {error}',
  'error.body': 'The material of {name} could not be set: {error}',
};

const zh = {
  'page.title': 'MiniPBD — 浏览器中的基于位置的动力学',
  'page.description': 'MiniPBD：用 WebAssembly 中的基于位置的动力学模拟布料、绳索、软体和刚体。拖动它们，调节求解器，放入你自己的模型，分享链接。',
  'page.loading': '加载中…',
  'view.label': '模拟视图。拖动布料、绳索或物体来拉它，拖动球、杆或桌子来移动它，拖入 .obj 模型或 .json 场景文件来打开它，拖动空白处旋转视角，滚动或双指缩放，方向键旋转视角。空格键暂停或继续，暂停时句点键前进一步，R 键重置。',
  'hint': '拖动布料、绳索或物体来拉它 · 拖动碰撞体在水平面上移动它（按住 Shift：上下移动） · 拖动背景旋转视角 · 滚动或双指缩放 · 拖入 .obj 或 .json 文件 · 空格 暂停 · . 单步 · R 重置',
  'message.dismiss': '关闭消息',

  'panel.label': '模拟控制',
  'panel.title': '控制面板',
  'scene': '场景',
  'scene.fromLink': '来自链接：{name}',
  'scene.untitled': '未命名场景',
  'pause': '暂停',
  'resume': '继续',
  'step': '单步',
  'reset': '重置',
  'language': '语言',

  'readout.label': '模拟统计',
  'readout.steps': '步数',
  'readout.particles': '粒子',
  'readout.constraints': '约束',
  'readout.stepTime': '每步耗时',
  'readout.ms': '毫秒',

  'folder.solver': '求解器',
  'folder.stiffness': '刚度',
  'folder.mass': '每个粒子的质量（克）',
  'folder.contacts': '地面与接触',
  'folder.colliders': '碰撞体',
  'folder.wind': '风',
  'folder.view': '显示',
  'folder.share': '分享',
  'folder.keys': '键盘快捷键',

  'param.dt': '时间步长（毫秒）',
  'param.dt.help': '每一步模拟的时间；页面按真实时间所需的步数前进',
  'param.substeps': '子步数',
  'param.substeps.help': '每个时间步的子步数',
  'param.iterations': '迭代次数',
  'param.iterations.help': '每个子步中约束求解的迭代次数',
  'param.damping': '阻尼（每秒）',
  'param.damping.help': '每秒的速度阻尼',
  'param.maxSpeed': '速度上限（米/秒）',
  'param.maxSpeed.help': '粒子的速度不会超过此值；它让剧烈的拖动保持稳定，较低的上限会让一切像慢动作一样运动',
  'param.gravityX': '重力 x（m/s²）',
  'param.gravityX.help': '沿 x 轴（横向）的重力',
  'param.gravityY': '重力 y（m/s²）',
  'param.gravityY.help': '沿 y 轴（向上）的重力；地球为 −9.81',
  'param.gravityZ': '重力 z（m/s²）',
  'param.gravityZ.help': '沿 z 轴（朝向观察者）的重力',
  'param.ground': '地面',
  'param.ground.help': '粒子可以停在上面的地板',
  'param.groundHeight': '地面高度（米）',
  'param.groundHeight.help': '地板的高度',
  'param.restitution': '地面弹性',
  'param.restitution.help': '恢复系数：粒子从地面弹起时保留的接近速度的比例',
  'param.staticFriction': '静摩擦',
  'param.staticFriction.help': '使静止粒子保持不动的地面摩擦',
  'param.kineticFriction': '动摩擦',
  'param.kineticFriction.help': '使滑动粒子减速的地面摩擦',
  'param.thickness': '厚度（厘米）',
  'param.thickness.help': '粒子厚度：与碰撞体、地面以及（开启自碰撞时）其他粒子保持的距离',
  'param.collisions': '物体间碰撞',
  'param.collisions.help': '不同物体的粒子（绳与布、两块布）彼此保持厚度的距离',
  'mass.help': '该物体每个粒子的质量（克）；固定的粒子和场景中单独设定质量的区域保持不变',
  'collider.staticFriction': '静摩擦',
  'collider.staticFriction.help': '此碰撞体使静止粒子保持不动的摩擦',
  'collider.kineticFriction': '动摩擦',
  'collider.kineticFriction.help': '此碰撞体使滑动粒子减速的摩擦',
  'collider.restitution': '弹性',
  'collider.restitution.help': '恢复系数：粒子从此碰撞体弹起时保留的接近速度的比例',

  'view.particles': '显示粒子',
  'view.heatMap': '误差热图（蓝 0，红 ≥ 10%）',
  'view.plots': '收敛与能量曲线',
  'view.velocityArrows': '速度箭头',
  'view.water': '水面（关闭时流体显示为粒子）',
  'view.waterUnavailable': '此处无法绘制水面（{reason}）：流体显示为粒子',
  'notice.waterFallback': '此浏览器无法绘制水面（{reason}），流体显示为粒子。',
  'plot.convergence': '上一步中每次求解迭代后的平均约束误差',
  'plot.energy': '最近 30 秒的动能和势能',
  'plot.convergenceLabel': '每次迭代后的平均误差（对数），共 {n} 次迭代',
  'plot.last': '最后 {value}%',
  'plot.energyLabel': '动能（红）、势能（蓝），焦耳',
  'plot.flatNote': '每个子步只有一次迭代：每个点都在一个新的子步之后，所以曲线是平的。调高“求解器”中的“迭代次数”，可看到误差在一个子步内下降。',

  'share.note': '链接包含场景、这些设置和相机视角。',
  'share.copy': '复制链接',
  'share.field': '链接',
  'share.placeholder': '按“复制链接”生成链接',
  'share.copied': '已复制到剪贴板。',
  'share.selectToCopy': '请选中上面的链接来复制。',
  'share.long': '链接长 {n} 个字符，有些网站可能会截断它。',
  'share.copyEmbed': '复制嵌入代码',
  'share.embedField': '嵌入代码（用于其他页面的 HTML）',
  'share.embedCopied': '嵌入代码已复制：一个带脚本标签的元素，和一个 iframe。把任一个粘贴到页面中即可。',
  'share.embedSelect': '选中上面的代码来复制它。',

  'record.start': '录制',
  'record.start.help': '重新开始场景并录制你对它的操作；最后生成的链接会回放这些操作',
  'record.stop': '停止并生成链接',
  'record.stop.help': '停止录制，并生成回放所录内容的链接',
  'record.endReplay': '结束回放',
  'record.endReplay.help': '停止回放录制内容，由你接手操作',
  'record.recording': '正在从场景开头录制：拖动布料或碰撞体，然后按“停止”。',
  'record.discarded': '录制已丢弃：场景被替换了。',
  'record.unusable': '无法使用此录制：{error}',
  'record.done': '已录制 {steps} 步（{seconds} 秒，{grabs}）：链接会回放它们。',
  'record.grabs.one': '抓取 1 次',
  'record.grabs.other': '抓取 {n} 次',
  'record.noLink': '已录制 {steps} 步，但无法生成链接（见提示消息）。',
  'record.limitSteps': '录制在达到 {n} 步的上限时停止。',
  'record.limitEvents': '录制在达到 {n} 个事件的上限时停止。',
  'record.because': '录制已停止，因为{reason}。',
  'record.cause.position': '设置粒子位置无法被录制',
  'record.cause.velocity': '设置粒子速度无法被录制',
  'record.cause.mass': '修改质量无法被录制',
  'record.cause.param': '参数 {name} 取值 {value} 时无法被录制',
  'record.cause.call': '调用 {name} 时使用了回放无法记录的值',
  'replay.playing': '正在回放一段 {steps} 步（{seconds} 秒）的录制。',
  'replay.failed': '回放在第 {done} 步（共 {total} 步）后停止：{error}',
  'replay.stopped': '回放在第 {done} 步（共 {total} 步）后结束；模拟在没有回放的情况下继续。',
  'replay.stoppedBecause': '回放在第 {done} 步（共 {total} 步）后结束（{cause}）；模拟在没有回放的情况下继续。',
  'replay.cause.setting': '修改了一项设置',
  'replay.cause.collider': '修改了一个碰撞体',
  'replay.cause.particle': '修改了一个粒子',
  'replay.exact': '回放在 {steps} 步后完成，结束状态与录制时完全相同。',
  'replay.differs': '回放在 {steps} 步后完成，但结束状态与录制时不同（链接可能是用另一个版本的引擎生成的）。',
  'replay.finished': '回放在 {steps} 步后完成。',

  'keys.space': '空格',
  'keys.pause': '暂停或继续',
  'keys.period': '.',
  'keys.step': '前进一步（暂停时）',
  'keys.r': 'R',
  'keys.reset': '重置场景',
  'keys.arrows': '← ↑ → ↓',
  'keys.orbit': '旋转视角（在视图上）',
  'keys.plusMinus': '+ −',
  'keys.zoom': '缩放（在视图上）',
  'keys.note': '在输入框中输入时快捷键不起作用。',

  'footer': '用 C 编写的基于位置的动力学，以 SIMD 编译为 WebAssembly，用 WebGL2 绘制。',

  'desc.running': '运行中',
  'desc.paused': '已暂停',
  'desc.text': '{scene}。{particles} 个粒子，{constraints} 个约束。{state}。{held}',
  'desc.nothingHeld': '没有抓住任何物体。',
  'desc.held': '抓住了：{list}。',
  'desc.particles.one': '1 个粒子',
  'desc.particles.other': '{n} 个粒子',
  'desc.listSeparator': '、',

  'notice.pauseToStep': '请先暂停（空格键），再用句点键一步一步前进。',
  'notice.contextLost': '浏览器重置了图形；模拟仍在运行。',
  'error.param': '无法设置{label}：{error}',
  'error.mass': '无法设置 {name} 的质量：{error}',
  'error.collider': '无法设置 {name} 的材质：{error}',
  'error.record': '无法开始录制：{error}',
  'error.scene': '无法启动场景：{error}',
  'error.link': '无法打开此链接：{error}',
  'error.makeLink': '无法为此场景生成链接：{error}',
  'error.stopped': '模拟已停止：{error}',
  'error.start': '演示无法启动：{error}',

  'folder.bodies': '软体与刚体',
  'folder.files': '场景文件与模型',
  'files.note': '把 .obj 模型或 .json 场景文件拖到视图上，或在这里打开。',
  'files.download': '下载场景',
  'files.open': '打开场景或模型…',
  'files.type': '模型成为',
  'files.type.help': '打开或拖入的 .obj 模型成为什么：软体（四面体保持棱边和体积）或刚体（形状匹配）',
  'files.resolution': '模型分辨率',
  'files.resolution.help': '模型最长边上的晶格单元数：越多越贴合形状，计算量也越大',
  'body.mass': '质量（千克）',
  'body.mass.help': '整个物体的质量，平均分给它的粒子（固定的粒子不分）',
  'share.tooLarge': '此场景中的网格太大，无法放进链接：请用“下载场景”把它保存为文件。',
  'notice.modelAdded': '已加入 {name}（{kind}）。',
  'notice.sceneOpened': '已打开 {name}。',
  'error.model': '无法添加模型 {name}：{error}',
  'error.open': '无法打开文件 {name}：{error}',
  'error.fileKind': '{name} 既不是 .obj 模型，也不是 .json 场景文件。',
  'error.download': '无法保存场景：{error}',
  'error.body': '无法设置 {name} 的材质：{error}',
};

/** The tables, by language, with every object type's own strings (objects/). English is complete; a key missing
 *  from another table falls back to English. */
export const STRINGS = Object.fromEntries([['en', en], ['zh', zh]].map(([lang, table]) =>
  [lang, Object.assign({ ...table, ...objectStrings(lang) }, ...AREA_STRINGS.map((area) => area[lang]))]));

let current = LANGUAGES[0];

/**
 * The language to show: the `lang` query parameter if it names one we have (?lang=zh), else the first of
 * the browser's preferred languages we have, else English.
 * @param {{ search?: string, languages?: readonly string[] }} where  location.search and navigator.languages
 */
export function detectLanguage({ search = '', languages = [] } = {}) {
  let fromQuery = null;
  try {
    fromQuery = normalizeLanguage(new URLSearchParams(search).get('lang'));
  } catch {
    fromQuery = null;
  }
  if (fromQuery) return fromQuery;
  for (const tag of languages ?? []) {
    const lang = normalizeLanguage(tag);
    if (lang) return lang;
  }
  return LANGUAGES[0];
}

export function setLanguage(lang) {
  current = normalizeLanguage(lang) ?? LANGUAGES[0];
  return current;
}

export function getLanguage() {
  return current;
}

/** True when the current language (not the English fallback) has `key`. */
export function hasOwnString(key) {
  return Object.hasOwn(STRINGS[current], key);
}

/** The text for `key` in the current language, with {name} slots filled from `vars` (as plain text). */
export function t(key, vars) {
  const table = STRINGS[current];
  let s = Object.hasOwn(table, key) ? table[key] : Object.hasOwn(STRINGS.en, key) ? STRINGS.en[key] : key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, name) => (Object.hasOwn(vars, name) ? String(vars[name]) : m));
  return s;
}

/** t() for a count: `${base}.one` for 1, `${base}.other` otherwise, with {n} formatted. */
export function plural(base, n) {
  return t(`${base}.${n === 1 ? 'one' : 'other'}`, { n: formatNumber(n) });
}

/** A whole number with the current language's digit grouping (1,600 in both English and Chinese). */
export function formatNumber(n) {
  return Number(n).toLocaleString(HTML_LANG[current]);
}
