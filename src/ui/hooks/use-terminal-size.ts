/** The terminal's size as a store outside React (the keys read it too), following 'resize' events. */
import { useSyncExternalStore } from 'react';

/** Columns and rows of the terminal. */
export interface TerminalSize {
  columns: number;
  rows: number;
}

/** The size now, and a subscription to its changes. */
export interface SizeStore {
  getSize(): TerminalSize;
  subscribe(listener: () => void): () => void;
}

function read(stdout: NodeJS.WriteStream): TerminalSize {
  // 0 or undefined when not a TTY: fall back to the classic 80×24.
  return { columns: stdout.columns || 80, rows: stdout.rows || 24 };
}

/** A store of `stdout`'s size: the same object until the size really changes. */
export function createSizeStore(stdout: NodeJS.WriteStream): SizeStore {
  let size = read(stdout);
  return {
    getSize() {
      // Read again on each call: a resize may come before its event (and a test sets the size directly).
      const next = read(stdout);
      if (next.columns !== size.columns || next.rows !== size.rows) size = next;
      return size;
    },
    subscribe(listener) {
      stdout.on('resize', listener);
      return () => {
        stdout.off('resize', listener);
      };
    },
  };
}

/** The size now; re-renders on resize. */
export function useTerminalSize(store: SizeStore): TerminalSize {
  return useSyncExternalStore(store.subscribe, store.getSize);
}
