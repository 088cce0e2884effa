// errors.js — how the page words an error it shows (the message, or the thrown value as text), and the link
// encoder's refusal of a scene too large for a link (format/link.js), which the Share folder explains.

export function errorText(err) {
  return err && typeof err.message === 'string' && err.message ? err.message : String(err);
}

/** The link encoder's refusal of a scene whose mesh data is too large for a link (format/link.js). */
export function isTooLargeForLink(err) {
  return err?.name === 'LinkError' && /too large for a link/i.test(String(err.message));
}
