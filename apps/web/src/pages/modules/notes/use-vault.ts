import { useEffect, useReducer } from 'react';
import { noteVault } from '../../../state/note-vault';

/** Re-renders when the vault locks or opens a note, checks the idle deadline every 10 s and on waking, and counts taps and keys as use. */
export function useVaultTick(): void {
  const [, bump] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const off = noteVault.subscribe(bump);
    const timer = setInterval(() => noteVault.check(), 10_000);
    const touch = () => noteVault.touch();
    const wake = () => noteVault.check();
    document.addEventListener('pointerdown', touch, true);
    document.addEventListener('keydown', touch, true);
    document.addEventListener('visibilitychange', wake);
    return () => {
      off();
      clearInterval(timer);
      document.removeEventListener('pointerdown', touch, true);
      document.removeEventListener('keydown', touch, true);
      document.removeEventListener('visibilitychange', wake);
    };
  }, []);
}
