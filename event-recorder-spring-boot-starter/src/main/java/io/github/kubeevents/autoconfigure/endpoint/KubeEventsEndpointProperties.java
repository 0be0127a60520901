package io.github.kubeevents.autoconfigure.endpoint;

import java.util.Set;

import io.github.kubeevents.autoconfigure.InvalidKubeEventsPropertyException;

import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the {@code kubeevents} Actuator endpoint ({@code management.endpoint.kubeevents.*}), like Spring
 * Boot's own endpoints (e.g. {@code management.endpoint.quartz.*}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param showValues When to show event messages and notes, which can carry secrets from error strings.
 * @param roles Roles used to determine whether a user is authorized to see messages. When empty, all authenticated
 * users are authorized.
 * @param defaultLimit Maximum number of cache entries in each list of the endpoint's answer when the request has no
 * "limit" parameter.
 */
@ConfigurationProperties("management.endpoint.kubeevents")
public record KubeEventsEndpointProperties(@DefaultValue("never") Show showValues, Set<String> roles,
		@DefaultValue("100") int defaultLimit) {

	/**
	 * Checks the values; an empty role set when none is given.
	 * @param showValues when to show messages and notes (default {@code never})
	 * @param roles the roles (default none; {@code null} is taken as none)
	 * @param defaultLimit the default list limit (default 100; zero or positive)
	 */
	public KubeEventsEndpointProperties {
		if (defaultLimit < 0) {
			throw new InvalidKubeEventsPropertyException("management.endpoint.kubeevents.default-limit", defaultLimit,
					"must be zero or positive");
		}
		roles = (roles != null) ? Set.copyOf(roles) : Set.of();
	}

}
