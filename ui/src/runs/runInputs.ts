import type { WorkflowInput } from '../generated/WorkflowInput';

/** The Start-run form's first values: what the run config beside the workflow gives. */
export function initialInputValues(inputs: readonly WorkflowInput[]): Record<string, string> {
  return Object.fromEntries(inputs.map((input) => [input.name, input.value ?? '']));
}

/** What to send for the workflow's inputs, and the names still without a value. */
export function inputsToSend(
  inputs: readonly WorkflowInput[],
  values: Readonly<Record<string, string>>,
): { values: Record<string, string>; missing: string[] } {
  const sent: Record<string, string> = {};
  const missing: string[] = [];
  for (const { name } of inputs) {
    const value = values[name] ?? '';
    if (value === '') missing.push(name);
    else sent[name] = value;
  }
  return { values: sent, missing };
}
