package dev.locksmith.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
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

	private final UnaryOperator<String> redisName;

	/** Groups lock keys by the slot of their Redis name, {@code redisName}, when {@code cluster} says Redis is one. */
	HashSlotPartitioner(BooleanSupplier cluster, UnaryOperator<String> redisName) {
		this.cluster = cluster;
		this.redisName = redisName;
	}

	/** The positions of {@code keys}, grouped by hash slot, groups in order of first appearance. */
	List<List<Integer>> partition(List<String> keys) {
		if (!isCluster()) {
			return List.of(IntStream.range(0, keys.size()).boxed().toList());
		}
		Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
		for (int i = 0; i < keys.size(); i++) {
			// the slot of the UTF-8 bytes sent, whatever this JVM's default charset
			byte[] name = this.redisName.apply(keys.get(i)).getBytes(StandardCharsets.UTF_8);
			bySlot.computeIfAbsent(ClusterSlotHashUtil.calculateSlot(name), (slot) -> new ArrayList<>()).add(i);
		}
		return List.copyOf(bySlot.values());
	}

	/** {@code keys} grouped by hash slot; one key is one group, found without asking whether Redis is a cluster. */
	List<List<String>> groups(List<String> keys) {
		if (keys.size() == 1) {
			return List.of(keys);
		}
		return partition(keys).stream().map((group) -> group.stream().map(keys::get).toList()).toList();
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
