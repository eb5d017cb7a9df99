import { useCallback, useEffect, useRef, useState, type CSSProperties, type PointerEvent, type SyntheticEvent } from 'react';
import { fitScale, wheelFactor, ZOOM_STEP, zoomAround, type Point, type Size, type ZoomView } from './zoomMath';

interface ZoomState {
  /** The image's own size (0×0 until it has loaded). */
  image: Size;
  /** The stage's size. */
  viewport: Size;
  /** The view a person chose; null while the image is fitted to the stage. */
  chosen: ZoomView | null;
}

const NOTHING: Size = { width: 0, height: 0 };

function currentView(state: ZoomState): ZoomView {
  return state.chosen ?? { scale: fitScale(state.image, state.viewport), x: 0, y: 0 };
}

/** What the lightbox needs to zoom and pan one image. */
export interface ZoomPan {
  view: ZoomView;
  fitted: boolean;
  /** For the element the image is shown in (measured, and given wheel and drag handling). */
  stageRef: (element: HTMLDivElement | null) => void;
  stageHandlers: {
    onPointerDown: (event: PointerEvent<HTMLDivElement>) => void;
    onPointerMove: (event: PointerEvent<HTMLDivElement>) => void;
    onPointerUp: (event: PointerEvent<HTMLDivElement>) => void;
    onPointerCancel: (event: PointerEvent<HTMLDivElement>) => void;
  };
  dragging: boolean;
  onImageLoad: (event: SyntheticEvent<HTMLImageElement>) => void;
  imageStyle: CSSProperties;
  zoomIn: () => void;
  zoomOut: () => void;
  fit: () => void;
  actualSize: () => void;
}

/**
 * Zoom (buttons, wheel at the pointer) and pan (drag) of one image inside a stage. The view
 * starts fitted and follows the stage's size until a person zooms or pans; it starts over
 * whenever `imageKey` changes.
 */
export function useZoomPan(imageKey: string): ZoomPan {
  const [state, setState] = useState<ZoomState>({ image: NOTHING, viewport: NOTHING, chosen: null });
  const [shownKey, setShownKey] = useState(imageKey);
  if (shownKey !== imageKey) {
    setShownKey(imageKey);
    setState((s) => ({ ...s, image: NOTHING, chosen: null }));
  }
  const [stage, setStage] = useState<HTMLDivElement | null>(null);
  const drag = useRef<{ pointer: number; last: Point } | null>(null);
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    if (stage === null) return;
    const measure = () => setState((s) => ({ ...s, viewport: { width: stage.clientWidth, height: stage.clientHeight } }));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(stage);
    // Not a React handler: those are passive, and the page must not scroll while zooming.
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const rect = stage.getBoundingClientRect();
      const anchor = { x: event.clientX - rect.left - rect.width / 2, y: event.clientY - rect.top - rect.height / 2 };
      const factor = wheelFactor(event.deltaY, event.deltaMode);
      setState((s) => {
        const view = currentView(s);
        return { ...s, chosen: zoomAround(view, view.scale * factor, anchor) };
      });
    };
    stage.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      observer.disconnect();
      stage.removeEventListener('wheel', onWheel);
    };
  }, [stage]);

  const zoomBy = useCallback((factor: number) => {
    setState((s) => {
      const view = currentView(s);
      return { ...s, chosen: zoomAround(view, view.scale * factor) };
    });
  }, []);

  const endDrag = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current?.pointer !== event.pointerId) return;
    drag.current = null;
    setDragging(false);
  };

  const view = currentView(state);
  const { image } = state;
  return {
    view,
    fitted: state.chosen === null,
    stageRef: setStage,
    stageHandlers: {
      onPointerDown: (event) => {
        if (event.button !== 0 || (event.target instanceof Element && event.target.closest('button, a'))) return;
        event.currentTarget.setPointerCapture(event.pointerId);
        drag.current = { pointer: event.pointerId, last: { x: event.clientX, y: event.clientY } };
        setDragging(true);
      },
      onPointerMove: (event) => {
        const current = drag.current;
        if (current === null || current.pointer !== event.pointerId) return;
        const dx = event.clientX - current.last.x;
        const dy = event.clientY - current.last.y;
        current.last = { x: event.clientX, y: event.clientY };
        setState((s) => {
          const v = currentView(s);
          return { ...s, chosen: { scale: v.scale, x: v.x + dx, y: v.y + dy } };
        });
      },
      onPointerUp: endDrag,
      onPointerCancel: endDrag,
    },
    dragging,
    onImageLoad: (event) => {
      const { naturalWidth: width, naturalHeight: height } = event.currentTarget;
      setState((s) => ({ ...s, image: { width, height } }));
    },
    imageStyle: {
      width: image.width > 0 ? `${image.width}px` : undefined,
      height: image.height > 0 ? `${image.height}px` : undefined,
      transform: `translate(-50%, -50%) translate(${view.x}px, ${view.y}px) scale(${view.scale})`,
      imageRendering: view.scale >= 2 ? 'pixelated' : undefined,
      visibility: image.width > 0 ? 'visible' : 'hidden',
    },
    zoomIn: () => zoomBy(ZOOM_STEP),
    zoomOut: () => zoomBy(1 / ZOOM_STEP),
    fit: () => setState((s) => ({ ...s, chosen: null })),
    actualSize: () => setState((s) => ({ ...s, chosen: { scale: 1, x: 0, y: 0 } })),
  };
}
