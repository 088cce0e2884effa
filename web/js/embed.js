// embed.js — the embedding entry point (docs/embedding.md "Embedding"): one ES module that defines <minipbd-scene>
// (embed/element.js) and, on embed.html, boots the iframe page (embed/page.js). Its URL is the one pages load:
//
//   <script type="module" src="https://example.org/minipbd/js/embed.js"></script>
//   <minipbd-scene scene="flag" style="width: 480px; height: 300px"></minipbd-scene>

import { bootEmbedPage } from './embed/page.js';

export { MiniPBDSceneElement } from './embed/element.js';
export { bootEmbedPage };
export { DEFAULT_WASM_URL, SHADER_BASE_URL, MAX_LIVE_CONTEXTS, liveContexts, sharedEngine } from './embed/shared.js';

if (document.documentElement.hasAttribute('data-minipbd-embed-page')) bootEmbedPage();
