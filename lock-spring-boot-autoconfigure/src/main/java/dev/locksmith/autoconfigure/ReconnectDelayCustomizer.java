package dev.locksmith.autoconfigure;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.core.Ordered;

/**
 * Caps the pause between Lettuce's attempts to reconnect to a Redis that went away: Lettuce doubles it
 * after each failed attempt up to 30 s, so after a 40 s outage locking and health stayed down for up to
 * 24 s more once Redis answered again. Here it still doubles from 1ms, with jitter, but stays between
 * half of {@value #PROPERTY} and all of it. Applies to the ClientResources that Spring Boot builds, which
 * every Lettuce connection factory it auto-configures shares, not only Locksmith's. Runs first, so that
 * the application's own customizers have the last word.
 */
final class ReconnectDelayCustomizer implements ClientResourcesBuilderCustomizer, Ordered {

	static final String PROPERTY = "locksmith.redis.max-reconnect-delay";

	private final Duration max;

	/**
	 * A customizer that caps the delay at {@code max}.
	 * @throws IllegalArgumentException when {@code max} is shorter than 1ms
	 */
	ReconnectDelayCustomizer(Duration max) {
		if (max.compareTo(Duration.ofMillis(1)) < 0) {
			throw new IllegalArgumentException("maxReconnectDelay must be at least 1ms, was " + max);
		}
		this.max = max;
	}

	@Override
	public void customize(ClientResources.Builder builder) {
		builder.reconnectDelay(Delay.fullJitter(Duration.ZERO, this.max, 1, TimeUnit.MILLISECONDS));
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
