'use strict';
/*
 * Ctrl-C / SIGTERM during a run: the measurement in progress stops, the scenario throws, and its
 * finally blocks stop the processes and drop the database.
 */
let interrupted = false;
const listeners = new Set();

function interrupt() {
  interrupted = true;
  for (const fn of listeners) fn();
}

/** Calls `fn` on interruption; returns the function that unregisters it. */
function onInterrupt(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

const isInterrupted = () => interrupted;

function throwIfInterrupted() {
  if (interrupted) throw new Error('interrupted');
}

module.exports = { interrupt, onInterrupt, isInterrupted, throwIfInterrupted };
