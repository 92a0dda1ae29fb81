package dev.locksmith.redis;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;

import dev.locksmith.testing.WorkerJvm;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The keys of one call on a cluster are grouped by the slots Redis gives the UTF-8 names sent, whatever
 * the JVM's default charset (on Java 17 it is the locale's, often ASCII in a container).
 */
class HashSlotPartitionerTests {

	private static final RedisLockKeys NAMES = new RedisLockKeys("lock:");

	/** Keys with characters beyond ASCII, and one of ASCII in the slot of the first: these two go together. */
	private static final List<String> KEYS = List.of("é", twinOf("é"), "ü", "заказ-1", "订单", "order-2");

	@Test
	void groupsKeysByTheSlotsOfTheNamesSent() {
		assertThat(SlotGroups.bySlotsSent()).as("the key and its twin in one group").hasSize(KEYS.size() - 1);
		assertThat(SlotGroups.partitioned()).isEqualTo(SlotGroups.bySlotsSent());
	}

	@Test
	void groupsKeysByTheSlotsOfTheNamesSentUnderALatin1DefaultCharset() throws Exception {
		List<String> command = new ArrayList<>(WorkerJvm.command(SlotGroups.class));
		command.add(1, "-Dfile.encoding=ISO-8859-1");
		Process worker = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(worker.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(worker.waitFor(2, TimeUnit.MINUTES)).as(output).isTrue();
		assertThat(output).contains("default charset ISO-8859-1").contains("groups as sent: true");
	}

	/** A key of ASCII characters whose lock's name is in the slot of {@code key}'s, in UTF-8. */
	private static String twinOf(String key) {
		int slot = slotSent(key);
		return IntStream.iterate(0, (i) -> i + 1)
			.mapToObj((i) -> "order-" + i)
			.filter((candidate) -> slotSent(candidate) == slot)
			.findFirst()
			.orElseThrow();
	}

	private static int slotSent(String key) {
		return SlotHash.getSlot(NAMES.name(RedisLockKeys.Kind.LOCK, RedisLockKeys.tag(key)));
	}

	/** Prints whether the partitioner groups {@link #KEYS} as Redis would slot their names, in this JVM's charset. */
	static final class SlotGroups {

		public static void main(String[] args) {
			System.out.println("default charset " + Charset.defaultCharset());
			System.out.println("groups as sent: " + partitioned().equals(bySlotsSent()));
		}

		static List<List<Integer>> partitioned() {
			return new HashSlotPartitioner(() -> true, NAMES::lockKey).partition(KEYS);
		}

		static List<List<Integer>> bySlotsSent() {
			Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
			IntStream.range(0, KEYS.size())
				.forEach((i) -> bySlot.computeIfAbsent(slotSent(KEYS.get(i)), (slot) -> new ArrayList<>()).add(i));
			return List.copyOf(bySlot.values());
		}

	}

}
