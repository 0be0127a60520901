package io.github.kubeevents.autoconfigure.health;

import io.github.kubeevents.autoconfigure.InvalidKubeEventsPropertyException;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the {@code kubeevents} health indicator ({@code management.health.kubeevents.*}), like Spring Boot's
 * own indicators (e.g. {@code management.health.diskspace.threshold}); {@code management.health.kubeevents.enabled}
 * is Spring Boot's switch.
 *
 * <p>Immutable and thread-safe.
 *
 * @param failuresInARow Number of failed write attempts in a row, after a written event, that make the health
 * status DEGRADED, whatever the failure (unreachable server, timeout, 5xx, refusal); with no event written yet the
 * first failure does, and so does a write given up after its retries.
 */
@ConfigurationProperties("management.health.kubeevents")
public record KubeEventsHealthProperties(@DefaultValue("3") int failuresInARow) {

	/**
	 * Checks the value.
	 * @param failuresInARow failed attempts in a row that make the status DEGRADED (default 3, at least 1)
	 */
	public KubeEventsHealthProperties {
		if (failuresInARow < 1) {
			throw new InvalidKubeEventsPropertyException("management.health.kubeevents.failures-in-a-row",
					failuresInARow, "must be at least 1");
		}
	}

}
