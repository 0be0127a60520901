package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.CorrelatorOptions;

/**
 * Callback to customize the correlator options of the auto-configured broadcaster beyond what
 * {@code kubeevents.correlator.*} covers (clock, spam and aggregate key functions, message function). Called,
 * in {@link org.springframework.core.Ordered} order, after the properties have been applied to the builder: once
 * for the core/v1 options and once for the events.k8s.io/v1 ones (where aggregation and the spam filter are off
 * unless enabled).
 *
 * <p>Implementations are called once, on the thread creating the broadcaster bean.
 */
@FunctionalInterface
public interface CorrelatorOptionsCustomizer {

	/**
	 * Customizes the builder.
	 * @param builder the builder, already configured from the properties
	 */
	void customize(CorrelatorOptions.Builder builder);

}
