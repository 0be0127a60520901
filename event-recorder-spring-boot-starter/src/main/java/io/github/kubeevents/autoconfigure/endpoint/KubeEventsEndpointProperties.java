package io.github.kubeevents.autoconfigure.endpoint;

import java.util.HashSet;
import java.util.Set;

import io.github.kubeevents.autoconfigure.InvalidKubeEventsPropertyException;

import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the {@code kubeevents} Actuator endpoint ({@code management.endpoint.kubeevents.*}), like Spring
 * Boot's own endpoints (e.g. {@code management.endpoint.quartz.*}).
 *
 * <p>Mutable JavaBean, bound once at startup.
 */
@ConfigurationProperties("management.endpoint.kubeevents")
public class KubeEventsEndpointProperties {

	/**
	 * When to show event messages and notes, which can carry secrets from error strings.
	 */
	private Show showValues = Show.NEVER;

	/**
	 * Roles used to determine whether a user is authorized to see messages. When empty, all authenticated users
	 * are authorized.
	 */
	private final Set<String> roles = new HashSet<>();

	/**
	 * Maximum number of cache entries in each list of the endpoint's answer when the request has no "limit"
	 * parameter.
	 */
	private int defaultLimit = 100;

	public Show getShowValues() {
		return this.showValues;
	}

	public void setShowValues(Show showValues) {
		this.showValues = showValues;
	}

	public Set<String> getRoles() {
		return this.roles;
	}

	public int getDefaultLimit() {
		return this.defaultLimit;
	}

	public void setDefaultLimit(int defaultLimit) {
		if (defaultLimit < 0) {
			throw new InvalidKubeEventsPropertyException("management.endpoint.kubeevents.default-limit", defaultLimit,
					"must be zero or positive");
		}
		this.defaultLimit = defaultLimit;
	}

}
