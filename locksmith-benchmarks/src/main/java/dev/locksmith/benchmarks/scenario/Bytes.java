package dev.locksmith.benchmarks.scenario;

/**
 * Memory taken by what a footprint point holds, over the same state without it.
 *
 * @param heap retained bytes of this JVM's heap, after a full collection
 * @param redis bytes of Redis keys, as {@code MEMORY USAGE} counts them
 */
public record Bytes(long heap, long redis) {

	@Override
	public String toString() {
		return "heap %,d B, Redis %,d B".formatted(this.heap, this.redis);
	}

}
