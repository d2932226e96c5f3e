/** The answering engine (a @docintel/answering Reader) the units ask. */
export const READER = Symbol('READER');
