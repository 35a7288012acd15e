/**
 * A clock of this process's CPU time, in ms, for the tests that bound how much work a call does.
 * The wall clock also counts the time other processes held the CPU: on a loaded 2-core machine a
 * merge that takes 1 s of CPU took 6.5 s by the wall clock. (Vitest runs each test file in a
 * process of its own, so nothing else of the run is counted.)
 */
export function cpuClock(): () => number {
  const start = process.cpuUsage();
  return () => {
    const { user, system } = process.cpuUsage(start);
    return (user + system) / 1000;
  };
}
