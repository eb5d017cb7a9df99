import { aliveWorkersNote, type RunPlace } from './runPlace';

/**
 * A row of the Start-run form (inside a `start-run__grid`): run here, or queue the run for
 * one of the `alive` workers of the run queue.
 */
export function RunPlaceChoice({ place, alive, onChoose }: { place: RunPlace; alive: number; onChoose: (place: RunPlace) => void }) {
  return (
    <div className="start-run__row">
      <span className="start-run__label" id="run-place">
        Where
      </span>
      <div className="start-run__places" role="radiogroup" aria-labelledby="run-place" data-testid="run-place">
        <label className="start-run__check">
          <input type="radio" name="run-place" value="here" checked={place === 'here'} onChange={() => onChoose('here')} /> Run here
        </label>
        <label className="start-run__check">
          <input type="radio" name="run-place" value="worker" checked={place === 'worker'} onChange={() => onChoose('worker')} /> Queue for a
          worker <span className="muted">({aliveWorkersNote(alive)})</span>
        </label>
      </div>
    </div>
  );
}
