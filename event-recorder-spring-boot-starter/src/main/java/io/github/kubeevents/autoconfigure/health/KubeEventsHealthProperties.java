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
 * @param rejectionsInARow Number of refusals in a row, after a written event, that make the health status
 * DEGRADED (with no event written yet, the first refusal does).
 */
@ConfigurationProperties("management.health.kubeevents")
public record KubeEventsHealthProperties(@DefaultValue("3") int rejectionsInARow) {

	/**
	 * Checks the value.
	 * @param rejectionsInARow refusals in a row that make the status DEGRADED (default 3, at least 1)
	 */
	public KubeEventsHealthProperties {
		if (rejectionsInARow < 1) {
			throw new InvalidKubeEventsPropertyException("management.health.kubeevents.rejections-in-a-row",
					rejectionsInARow, "must be at least 1");
		}
	}

}
