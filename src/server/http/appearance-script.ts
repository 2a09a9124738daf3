/**
 * The CSP source that lets index.html's one inline script run: it applies the user's
 * Settings → Appearance (dark mode, primary colour, compact) from localStorage before the
 * first paint, so a dark page never flashes light (issue 27). Any other inline script stays
 * blocked. appearance-script.test.ts checks this hash against the script in index.html.
 */
export const APPEARANCE_SCRIPT_SOURCE = "'sha256-EMDzfDLKpUoV7fi+NLwHiGuZsm+dYiaoqjCciG/X1UU='"
