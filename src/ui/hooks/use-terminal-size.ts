/** The terminal's size, following stdout 'resize' events. */
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** Columns and rows of the terminal. */
export interface TerminalSize {
  columns: number;
  rows: number;
}

function read(stdout: NodeJS.WriteStream): TerminalSize {
  // 0 or undefined when not a TTY: fall back to the classic 80×24.
  return { columns: stdout.columns || 80, rows: stdout.rows || 24 };
}

/** The size now; re-renders on resize. */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => read(stdout));
  useEffect(() => {
    const onResize = () =>
      setSize((prev) => {
        const next = read(stdout);
        return next.columns === prev.columns && next.rows === prev.rows ? prev : next;
      });
    stdout.on('resize', onResize);
    onResize();
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
