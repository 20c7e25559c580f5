// Icons of the public pages: one empty element per icon, drawn by static/app.css (a `.i-<name>`
// rule holds the SVG as a mask, painted in the text colour). An icon is one DOM node and the page
// carries no sprite, which keeps a list of 25 cards light on a phone.

import Html from "@kitajs/html";

/** Every icon app.css draws (test/pages/icons.test.ts checks that each has its rule there). */
export const ICON_NAMES = [
  "sun",
  "moon",
  "star",
  "crown",
  "sparkle",
  "pin",
  "indoor",
  "outdoor",
  "calendar",
  "share",
  "close",
  "external",
  "search",
  "clock",
  "map",
  "filter",
  "heart",
  "check",
  "user",
  "arrow",
  "bookmark",
  "route",
] as const;

export type IconName = (typeof ICON_NAMES)[number];

/**
 * One icon. Decorative (hidden from assistive technology) unless `label` is given: then it is an
 * image with that name, so a meaning shown only by the icon (night, indoor) needs no extra text node.
 */
export function Icon(props: { name: IconName; class?: string; label?: string }): JSX.Element {
  const a11y = props.label ? `role="img" aria-label="${Html.escapeHtml(props.label)}"` : 'aria-hidden="true"';
  return `<span class="icon i-${props.name}${props.class ? ` ${props.class}` : ""}" ${a11y}></span>`;
}
