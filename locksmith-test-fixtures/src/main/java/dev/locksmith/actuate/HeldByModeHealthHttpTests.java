package dev.locksmith.actuate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code locks} health over real HTTP counts this instance's held locks by mode in
 * {@code heldByMode}, next to {@code held}: {@code write}, {@code read} and {@code permits}, always all
 * three. Each store's test extends it with the properties that select the store.
 */
public abstract class HeldByModeHealthHttpTests {

	private static final LockOptions WRITE = LockOptions.ofTtl(Duration.ofSeconds(30));

	private final List<LockHandle> handles = new ArrayList<>();

	private ConfigurableApplicationContext application;

	/** The properties that put the application on the store under test. */
	protected abstract String[] storeProperties();

	@AfterEach
	void stopApplication() {
		this.handles.forEach(LockHandle::close);
		if (this.application != null) {
			this.application.close();
		}
	}

	@Test
	void healthCountsTheHeldLocksByModeAndAllThreeModesWhenNoneIsHeld() throws InterruptedException {
		RestClient http = start();
		assertThat(locksHealth(http)).containsEntry("held", 0)
			.containsEntry("heldByMode", Map.of("write", 0, "read", 0, "permits", 0));

		LockService locks = this.application.getBean(LockService.class);
		hold(locks, "invoice:1", WRITE);
		hold(locks, "invoice:2", WRITE);
		hold(locks, "report", WRITE.withMode(LockMode.READ));
		hold(locks, "pdf", WRITE.withPermits(3));
		hold(locks, "pdf", WRITE.withPermits(3));
		assertThat(locks.tryAcquire("report", WRITE)).as("a writer while the reader holds").isEmpty();
		assertThat(locks.tryAcquire("pdf", WRITE.withPermits(3))).as("the third permit").isPresent()
			.get()
			.satisfies(LockHandle::close);

		Map<String, Object> health = locksHealth(http);
		assertThat(health).containsEntry("status", "UP")
			.containsEntry("held", 5)
			.containsEntry("heldByMode", Map.of("write", 2, "read", 1, "permits", 2))
			.containsEntry("lostLeases", 0)
			.containsKey("store");
		assertThat((Map<?, ?>) health.get("heldByMode")).as("the order of the modes").extracting(Map::keySet)
			.asString()
			.isEqualTo("[write, read, permits]");

		this.handles.remove(0).close();
		assertThat(locksHealth(http)).containsEntry("held", 4)
			.containsEntry("heldByMode", Map.of("write", 1, "read", 1, "permits", 2));
	}

	private void hold(LockService locks, String key, LockOptions options) throws InterruptedException {
		this.handles.add(locks.tryAcquire(key, options).orElseThrow());
	}

	private RestClient start() {
		this.application = new SpringApplicationBuilder(HealthApplication.class)
			.properties("server.port=0", "management.endpoint.health.show-details=always",
					"management.health.redis.enabled=false", "spring.main.banner-mode=off")
			.properties(storeProperties())
			.run();
		int port = ((WebServerApplicationContext) this.application).getWebServer().getPort();
		return RestClient.builder().baseUrl("http://127.0.0.1:" + port).build();
	}

	/** The {@code locks} health component: its status and its details in one map. */
	@SuppressWarnings("unchecked")
	private static Map<String, Object> locksHealth(RestClient http) {
		Map<String, Object> component = http.get().uri("/actuator/health/locks").retrieve().body(Map.class);
		Map<String, Object> flat = new LinkedHashMap<>((Map<String, Object>) component.get("details"));
		flat.put("status", component.get("status"));
		return flat;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class HealthApplication {

	}

}
