package dev.locksmith.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;

import dev.locksmith.core.LockUnavailableException;

/**
 * Splits the keys of one operation into groups that share a hash slot, since a script on Redis
 * Cluster may only touch one slot. On a standalone or Sentinel deployment every key goes into one
 * group, so a batch stays one round trip.
 */
final class HashSlotPartitioner {

	private final BooleanSupplier cluster;

	HashSlotPartitioner(BooleanSupplier cluster) {
		this.cluster = cluster;
	}

	/** The positions of {@code redisKeys}, grouped by hash slot, groups in order of first appearance. */
	List<List<Integer>> partition(List<String> redisKeys) {
		if (!isCluster()) {
			return List.of(IntStream.range(0, redisKeys.size()).boxed().toList());
		}
		Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
		for (int i = 0; i < redisKeys.size(); i++) {
			bySlot.computeIfAbsent(ClusterSlotHashUtil.calculateSlot(redisKeys.get(i)), (slot) -> new ArrayList<>())
				.add(i);
		}
		return List.copyOf(bySlot.values());
	}

	private boolean isCluster() {
		try {
			return this.cluster.getAsBoolean();
		}
		catch (DataAccessException ex) {
			throw new LockUnavailableException("Redis could not be reached: " + ex.getMessage(), ex);
		}
	}

}
