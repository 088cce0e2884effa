// mount.js — which gallery cards hold a live <minipbd-scene>: those on or near the screen, at most `max` of them
// (the element's own WebGL context budget, embed/shared.js MAX_LIVE_CONTEXTS), the nearest to the middle of the
// view first. A card that leaves the band, or loses its place to a nearer one, has its element removed: the
// element's disconnectedCallback then frees its world and its context, so cards far away hold neither (the
// element alone would keep every world it ever built, the large cloth's and the fluids' included).
// The element itself still starts only once it is on screen (its own IntersectionObserver).

/** Half a viewport above and below the screen: a card is mounted before it scrolls in, so it starts as it shows. */
const NEAR_MARGIN = '50% 0px 50% 0px';

export class CardMounter {
  /**
   * @param {number} max  elements live at once
   * @param {(card: HTMLElement) => HTMLElement} mount  puts a fresh element into the card, returns it
   */
  constructor(max, mount) {
    this.max = max;
    this.mountCard = mount;
    this.near = new Set();
    this.mounted = new Map(); // card -> its element
    this.observer = new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (e.isIntersecting) this.near.add(e.target);
        else this.near.delete(e.target);
      }
      this.update();
    }, { rootMargin: NEAR_MARGIN });
    this.pending = false;
    // With more cards in the band than the budget (a very tall window), who is nearest changes as it scrolls.
    addEventListener('scroll', () => {
      if (this.near.size <= this.max || this.pending) return;
      this.pending = true;
      requestAnimationFrame(() => { this.pending = false; this.update(); });
    }, { passive: true });
  }

  observe(card) { this.observer.observe(card); }

  /** Mounts the `max` near cards nearest the middle of the view, unmounts every other. */
  update() {
    const middle = innerHeight / 2;
    const distance = (card) => {
      const r = card.getBoundingClientRect();
      return Math.abs((r.top + r.bottom) / 2 - middle);
    };
    const chosen = new Set([...this.near].sort((a, b) => distance(a) - distance(b)).slice(0, this.max));
    for (const [card, el] of this.mounted) {
      if (chosen.has(card)) continue;
      el.remove();
      this.mounted.delete(card);
      card.classList.remove('live');
    }
    for (const card of chosen) {
      if (this.mounted.has(card)) continue;
      this.mounted.set(card, this.mountCard(card));
      card.classList.add('live');
    }
  }
}
