package dev.locksmith.benchmarks.scenario;

/**
 * Memory of held locks and of waiters, against how many there are.
 *
 * @param held bytes by number of locks held at once by one thread
 * @param waiters bytes by number of threads waiting for one held lock, over as many idle threads
 */
public record FootprintFigures(Curve<Bytes> held, Curve<Bytes> waiters) {

}
