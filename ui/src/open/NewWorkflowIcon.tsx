import { Icon } from '../icons/Icon';

/** A file with a plus: starting a new workflow. */
export function NewWorkflowIcon({ size }: { size?: number }) {
  return (
    <Icon size={size}>
      <path d="M14 3H6.5A1.5 1.5 0 0 0 5 4.5v15A1.5 1.5 0 0 0 6.5 21h11a1.5 1.5 0 0 0 1.5-1.5V8z" />
      <path d="M14 3v5h5" />
      <path d="M12 11.5v6M9 14.5h6" />
    </Icon>
  );
}
