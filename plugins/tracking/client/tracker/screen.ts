/** The viewport width class sent in the optional `screen` field (README "Screen sizes"). */
export function screenClass(): string {
  const width = window.innerWidth || document.documentElement.clientWidth;
  if (width < 576) return 'mobile';
  if (width < 992) return 'tablet';
  if (width < 1440) return 'laptop';
  return 'desktop';
}
