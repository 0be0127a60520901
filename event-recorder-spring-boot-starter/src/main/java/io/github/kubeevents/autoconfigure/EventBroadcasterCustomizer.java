package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.EventBroadcaster;

/**
 * Callback to customize the auto-configured {@link EventBroadcaster} beyond what {@code kubeevents.*} covers
 * (clock, sleeper, jitter, or options set from code). Called, in {@link org.springframework.core.Ordered} order,
 * after the properties have been applied to the builder.
 *
 * <p>Implementations are called once, on the thread creating the broadcaster bean.
 */
@FunctionalInterface
public interface EventBroadcasterCustomizer {

	/**
	 * Customizes the builder.
	 * @param builder the builder, already configured from the properties
	 */
	void customize(EventBroadcaster.Builder builder);

}
