/** `@prompts/plan.md` (or ` @ prompts/plan.md `) as `prompts/plan.md`; null for anything else. */
export function referencedPath(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed.startsWith('@')) return null;
  const path = trimmed.slice(1).trim();
  return path === '' ? null : path;
}
