import { useState, type PointerEvent } from 'react';
import type { Size } from './zoomMath';

/** One side of a comparison: the image and what to call it. */
export interface ComparedImage {
  url: string;
  label: string;
}

function clampPercent(value: number): number {
  return Math.min(100, Math.max(0, value));
}

/**
 * One image over the other with a vertical divider: the first shows left of it, the second
 * right. Drag anywhere on the images, or use the range input (arrow keys), to move it. Both
 * images are drawn at the same scale from the top-left corner, so pixels line up.
 */
export function CompareSlider({ first, second }: { first: ComparedImage; second: ComparedImage }) {
  const [position, setPosition] = useState(50);
  const [sizes, setSizes] = useState<{ first: Size | null; second: Size | null }>({ first: null, second: null });
  const [dragging, setDragging] = useState<number | null>(null);

  const widest = Math.max(sizes.first?.width ?? 0, sizes.second?.width ?? 0);
  const widthOf = (size: Size | null) => (size !== null && widest > 0 ? `${(size.width / widest) * 100}%` : '100%');
  // The first image is clipped at the divider, in its own width's terms.
  const firstShare = sizes.first !== null && widest > 0 ? sizes.first.width / widest : 1;
  const clipRight = clampPercent(100 - position / firstShare);

  const moveTo = (event: PointerEvent<HTMLDivElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    if (rect.width > 0) setPosition(clampPercent(((event.clientX - rect.left) / rect.width) * 100));
  };

  return (
    <div className="compare-slider">
      <div
        className={`compare-slider__frame${dragging !== null ? ' is-dragging' : ''}`}
        style={{ width: widest > 0 ? `${widest}px` : undefined }}
        onPointerDown={(event) => {
          if (event.button !== 0) return;
          event.currentTarget.setPointerCapture(event.pointerId);
          setDragging(event.pointerId);
          moveTo(event);
        }}
        onPointerMove={(event) => {
          if (dragging === event.pointerId) moveTo(event);
        }}
        onPointerUp={() => setDragging(null)}
        onPointerCancel={() => setDragging(null)}
      >
        <img
          className="compare-slider__image"
          src={second.url}
          alt={second.label}
          draggable={false}
          style={{ width: widthOf(sizes.second) }}
          onLoad={(e) => {
            const { naturalWidth: width, naturalHeight: height } = e.currentTarget;
            setSizes((s) => ({ ...s, second: { width, height } }));
          }}
        />
        <img
          className="compare-slider__image"
          src={first.url}
          alt={first.label}
          draggable={false}
          style={{ width: widthOf(sizes.first), clipPath: `inset(0 ${clipRight}% 0 0)` }}
          onLoad={(e) => {
            const { naturalWidth: width, naturalHeight: height } = e.currentTarget;
            setSizes((s) => ({ ...s, first: { width, height } }));
          }}
        />
        <div className="compare-slider__divider" style={{ left: `${position}%` }} aria-hidden="true" />
        <span className="compare-slider__tag is-first" aria-hidden="true">
          {first.label}
        </span>
        <span className="compare-slider__tag is-second" aria-hidden="true">
          {second.label}
        </span>
      </div>
      <input
        type="range"
        className="compare-slider__range"
        min={0}
        max={100}
        step={1}
        value={Math.round(position)}
        onChange={(e) => setPosition(clampPercent(Number(e.target.value)))}
        aria-label="Divider position"
        aria-valuetext={`${Math.round(position)}% ${first.label}, ${100 - Math.round(position)}% ${second.label}`}
      />
    </div>
  );
}
