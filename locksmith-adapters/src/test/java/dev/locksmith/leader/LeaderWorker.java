package dev.locksmith.leader;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.leader.event.OnGrantedEvent;
import org.springframework.integration.leader.event.OnRevokedEvent;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * A small leader application, run in a JVM of its own by the leadership process tests. With
 * {@code election}, it elects a leader of {@link #ROLE} with {@code locksmith.leader.roles}, and its
 * leader acts on the checker's fenced counter with its fencing token until it is revoked; with
 * {@code initiator}, Spring Integration's {@link LockRegistryLeaderInitiator} elects on Locksmith's
 * {@link LockRegistry}, and grants and revocations are recorded by the checker. Arguments: the lock
 * Redis's port, the checker Redis's port, and the mode.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class LeaderWorker {

	static final String ROLE = "worker";

	/** The leader's lease: short, so that a takeover is quick, and long enough for a loaded machine. */
	static final Duration TTL = Duration.ofSeconds(3);

	private static final long PID = ProcessHandle.current().pid();

	private static final Log logger = LogFactory.getLog(LeaderWorker.class);

	public static void main(String[] args) {
		new SpringApplicationBuilder(LeaderWorker.class).web(WebApplicationType.NONE)
			.properties("spring.data.redis.port=" + args[0], "worker.checker-port=" + args[1], "worker.mode=" + args[2],
					"spring.main.keep-alive=true", "locksmith.default-ttl=" + TTL.toMillis() + "ms",
					"locksmith.leader.ttl=" + TTL.toMillis() + "ms",
					"locksmith.leader.roles=" + (args[2].equals("election") ? ROLE : ""))
			.run(args);
	}

	@Bean(destroyMethod = "close")
	LeadershipChecker checker(Environment environment) {
		return new LeadershipChecker(environment.getRequiredProperty("worker.checker-port", Integer.class));
	}

	@Bean
	@ConditionalOnProperty(name = "worker.mode", havingValue = "election")
	FencedWork fencedWork(LeadershipChecker checker) {
		return new FencedWork(checker);
	}

	@Bean
	@ConditionalOnProperty(name = "worker.mode", havingValue = "initiator")
	LockRegistryLeaderInitiator leaderInitiator(LockRegistry<?> registry) {
		return new LockRegistryLeaderInitiator(registry, new DefaultCandidate(Long.toString(PID), ROLE));
	}

	@Bean
	@ConditionalOnProperty(name = "worker.mode", havingValue = "initiator")
	InitiatorEvents initiatorEvents(LeadershipChecker checker) {
		return new InitiatorEvents(checker);
	}

	/**
	 * The leader's work: from its grant to its revocation, act on the fenced counter every few
	 * milliseconds with the grant's fencing token, and rely on the fence, not on a check before each
	 * act, to keep a replaced leader out.
	 */
	static final class FencedWork {

		private final LeadershipChecker checker;

		private volatile long leadership;

		FencedWork(LeadershipChecker checker) {
			this.checker = checker;
		}

		@EventListener
		void granted(LeaderGrantedEvent granted) {
			logger.info("Leads with fencing token " + granted.fencingToken());
			this.leadership = granted.fencingToken();
			act(granted.fencingToken());
		}

		@EventListener
		void revoked(LeaderRevokedEvent revoked) {
			logger.info("No longer leads with fencing token " + revoked.fencingToken());
			this.leadership = 0;
		}

		/**
		 * Acts with {@code token} every 20 ms while it leads. An act the checker holds between the decision
		 * and the act (it answers -1) is tried again on the next tick with the same token, led or not.
		 */
		private void act(long token) {
			ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor((task) -> {
				Thread thread = new Thread(task, "actor-" + token);
				thread.setDaemon(true);
				return thread;
			});
			AtomicBoolean held = new AtomicBoolean();
			ticks.scheduleWithFixedDelay(() -> {
				if (!held.get() && this.leadership != token) {
					ticks.shutdown();
					return;
				}
				held.set(this.checker.act(token, PID) == -1);
			}, 0, 20, TimeUnit.MILLISECONDS);
		}

	}

	/** Records Spring Integration's grants and revocations with the checker. */
	static final class InitiatorEvents {

		private final LeadershipChecker checker;

		InitiatorEvents(LeadershipChecker checker) {
			this.checker = checker;
		}

		@EventListener
		void granted(OnGrantedEvent granted) {
			logger.info("Granted by Spring Integration");
			this.checker.granted(PID);
		}

		@EventListener
		void revoked(OnRevokedEvent revoked) {
			logger.info("Revoked by Spring Integration");
			this.checker.revoked(PID);
		}

	}

}
