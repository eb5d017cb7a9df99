import type { WorkflowTemplate } from '../generated/WorkflowTemplate';

/** The templates as radio buttons (arrow keys move between them), each with what it holds. */
export function TemplatePicker({
  templates,
  chosen,
  onChoose,
}: {
  templates: readonly WorkflowTemplate[];
  chosen: string;
  onChoose: (name: string) => void;
}) {
  return (
    <fieldset className="template-picker">
      <legend className="new-workflow__label">Template</legend>
      <div className="template-picker__options">
        {templates.map((template) => (
          <label
            key={template.name}
            className={template.name === chosen ? 'template-option is-chosen' : 'template-option'}
            data-testid={`template-${template.name}`}
          >
            <input
              type="radio"
              name="new-workflow-template"
              value={template.name}
              checked={template.name === chosen}
              onChange={() => onChoose(template.name)}
            />
            <span className="template-option__body">
              <span className="template-option__title">
                <span className="template-option__name">{template.name}</span>
                <span className="template-option__count">
                  {template.node_count} {template.node_count === 1 ? 'node' : 'nodes'}
                </span>
              </span>
              <span className="template-option__summary">{template.summary}</span>
              {template.extra_files.length > 0 ? (
                <span className="template-option__files" aria-label="Files it brings">
                  {template.extra_files.map((file) => (
                    <code key={file} className="template-option__file">
                      + {file}
                    </code>
                  ))}
                </span>
              ) : null}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
