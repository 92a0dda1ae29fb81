package dev.locksmith.core;

/** A lock handle that records what holds it, such as the annotated method, for the locks endpoint. */
interface HolderAware {

	/** Records {@code holder} unless an earlier one was recorded. */
	void describeHolder(String holder);

}
