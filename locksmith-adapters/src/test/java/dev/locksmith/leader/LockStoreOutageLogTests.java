package dev.locksmith.leader;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import dev.locksmith.adapters.LeaderApplications;
import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.OnBusy;
import dev.locksmith.autoconfigure.scheduling.LocksmithSchedulingAutoConfiguration;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.JulToSlf4jExtension;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A lock store outage as a whole application meets it, leading a role, renewing a held lock and running
 * a scheduled job: each component logs one WARN per lock, without a stack trace, then DEBUG while the
 * outage lasts, and one INFO when the store answers again.
 */
@ExtendWith({ JulToSlf4jExtension.class, OutputCaptureExtension.class })
class LockStoreOutageLogTests {

	/** A line that Locksmith logged: its level, its logger and the first lock it names. */
	private static final Pattern LOCKSMITH_LINE = Pattern.compile(" (WARN|INFO|DEBUG) (dev\\.locksmith\\.\\S+) -- ([^']*'([^']*)')?");

	/** The first line of a stack trace that logback prints below its message. */
	private static final Pattern STACK_TRACE = Pattern.compile("^(\\tat |Caused by: |[\\w.$]+(Exception|Error)\\b)");

	/** Keeps the level set on the engine's {@code java.util.logging} loggers, which it holds only weakly. */
	private static final Logger julLocksmith = Logger.getLogger("dev.locksmith");

	private final LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());

	private RedisServer redis;

	@BeforeEach
	void startRedisAndLogLocksmithAtDebug() {
		this.redis = RedisServer.start();
		this.logging.setLogLevel("dev.locksmith", LogLevel.DEBUG);
		julLocksmith.setLevel(Level.FINE);
	}

	@AfterEach
	void stopRedis() {
		julLocksmith.setLevel(null);
		this.logging.setLogLevel("dev.locksmith", null);
		this.redis.close();
	}

	@Test
	void eachComponentWarnsOncePerLockWithoutAStackTraceAndSaysOnceThatTheStoreIsBack(CapturedOutput output) {
		LeaderApplications.onRedis(this.redis)
			.withConfiguration(AutoConfigurations.of(TaskSchedulingAutoConfiguration.class,
					LocksmithSchedulingAutoConfiguration.class))
			.withPropertyValues("locksmith.leader.roles=cleanup", "locksmith.leader.ttl=3s")
			.withBean(StockReport.class)
			.withUserConfiguration(Scheduling.class)
			.run((context) -> {
				LeaderElection cleanup = context.getBean(LeaderElections.class).election("cleanup");
				StockReport job = context.getBean(StockReport.class);
				// renewed every 5 s, retried every 1.5 s; a restarted Redis has lost it, which is logged once too
				context.getBean(LockService.class)
					.acquire("held-report", LockOptions.ofTtl(Duration.ofSeconds(15)).withName("held-report"));
				await().atMost(Duration.ofSeconds(30)).until(() -> cleanup.isLeader() && job.runs() > 0
						&& this.redis.subscribers("lock:released:{}") > 0);
				int outageStart = output.getOut().length();

				this.redis.stop();
				await().atMost(Duration.ofSeconds(60)).until(() -> {
					List<String> lines = linesSince(output, outageStart);
					return count(lines, "Cannot campaign for the leadership of 'cleanup'") >= 3
							&& count(lines, "Could not renew") >= 2 && count(lines, "Scheduled task did not run") >= 3
							// Lettuce reconnects within 1 s of the restart: only a renewal failed before it is logged
							&& count(lines, "Could not renew the lease of lock 'held-report'") >= 1;
				});
				int runsBefore = job.runs();
				this.redis.restart();
				await().atMost(Duration.ofSeconds(60)).until(() -> cleanup.isLeader() && job.runs() > runsBefore);

				List<String> lines = linesSince(output, outageStart);
				assertThat(warnsPerLoggerAndLock(lines)).containsKeys(
						"dev.locksmith.leader.LeaderElection 'cleanup'",
						"dev.locksmith.core.LeaseRenewer 'held-report'", "dev.locksmith.aop.DistributedLockInterceptor 'stock-report'")
					.allSatisfy((loggerAndLock, warns) -> assertThat(warns).as(loggerAndLock).isOne());
				assertThat(IntStream.range(0, lines.size() - 1)
					.filter((i) -> lines.get(i).contains(" WARN dev.locksmith.")
							&& STACK_TRACE.matcher(lines.get(i + 1)).find())
					.mapToObj(lines::get)).as("WARN lines with a stack trace").isEmpty();
				await().atMost(Duration.ofSeconds(60))
					.until(() -> infosPerLogger(linesSince(output, outageStart)).keySet()
						.containsAll(List.of("dev.locksmith.leader.LeaderElection", "dev.locksmith.core.LeaseRenewer",
								"dev.locksmith.aop.DistributedLockInterceptor")));
				assertThat(infosPerLogger(linesSince(output, outageStart)))
					.allSatisfy((logger, infos) -> assertThat(infos).as(logger).isOne());
			});
	}

	private static List<String> linesSince(CapturedOutput output, int start) {
		return output.getOut().substring(start).lines().toList();
	}

	private static long count(List<String> lines, String text) {
		return lines.stream().filter((line) -> line.contains(text)).count();
	}

	/** How many WARN lines each Locksmith logger wrote for each lock, keyed {@code <logger> '<lock>'}. */
	private static Map<String, Long> warnsPerLoggerAndLock(List<String> lines) {
		return perLogger(lines, "WARN", (line) -> line.group(2) + " '" + line.group(4) + "'");
	}

	/** How many INFO lines saying that the store answers again each Locksmith logger wrote. */
	private static Map<String, Long> infosPerLogger(List<String> lines) {
		return perLogger(lines.stream().filter((line) -> line.contains("the lock store answers again")).toList(),
				"INFO", (line) -> line.group(2));
	}

	private static Map<String, Long> perLogger(List<String> lines, String level, Function<Matcher, String> key) {
		return lines.stream()
			.map(LOCKSMITH_LINE::matcher)
			.filter((line) -> line.find() && line.group(1).equals(level))
			.collect(Collectors.groupingBy(key, Collectors.counting()));
	}

	@EnableScheduling
	static class Scheduling {

	}

	/** A keyless job that skips when another instance runs it, as the README's scheduled job. */
	static class StockReport {

		private final AtomicInteger runs = new AtomicInteger();

		@Scheduled(fixedDelay = 200)
		@DistributedLock(name = "stock-report", onBusy = OnBusy.SKIP)
		public void run() {
			this.runs.incrementAndGet();
		}

		int runs() {
			return this.runs.get();
		}

	}

}
