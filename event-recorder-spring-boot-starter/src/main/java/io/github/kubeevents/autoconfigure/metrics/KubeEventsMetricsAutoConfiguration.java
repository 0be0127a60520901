package io.github.kubeevents.autoconfigure.metrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.status.EffectiveSink;
import io.github.kubeevents.autoconfigure.EventBroadcasterCustomizer;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.metrics.KubeEventsMeterBinder;
import io.github.kubeevents.metrics.KubeEventsRequestTimer;
import io.github.kubeevents.sink.Sink;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of the recorder's
 * meters ({@link KubeEventsMeterBinder}) and request timer ({@link KubeEventsRequestTimer}). Needs Micrometer on
 * the classpath and a {@link MeterRegistry} bean (Spring Boot binds every {@code MeterBinder} bean to it).
 */
@AutoConfiguration(after = KubeEventsAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ MeterRegistry.class, EventBroadcaster.class })
public final class KubeEventsMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	KubeEventsMeterBinder kubeEventsMeterBinder(EventBroadcaster broadcaster,
			ObjectProvider<KubeEventsStatus> status) {
		List<String> subscribers = new ArrayList<>();
		KubeEventsStatus resolved = status.getIfAvailable();
		if (resolved != null && resolved.sink() == EffectiveSink.KUBERNETES) {
			subscribers.add(EventBroadcaster.FIRST_SINK_SUBSCRIBER);
		}
		if (resolved != null && resolved.logEvents()) {
			subscribers.add(EventBroadcaster.LOGGING_SUBSCRIBER);
		}
		return new KubeEventsMeterBinder(broadcaster, subscribers);
	}

	@Bean
	@ConditionalOnMissingBean
	KubeEventsRequestTimer kubeEventsRequestTimer(MeterRegistry registry) {
		return new KubeEventsRequestTimer(registry);
	}

	/**
	 * Hands the timer to the broadcaster. The timer is looked up at the first request rather than now: creating
	 * it here would create the registry while the broadcaster is being created, and the registry binds the meter
	 * binder, which needs the broadcaster.
	 */
	@Bean
	@ConditionalOnMissingBean(name = "kubeEventsRequestTimerCustomizer")
	EventBroadcasterCustomizer kubeEventsRequestTimerCustomizer(ObjectProvider<KubeEventsRequestTimer> timer) {
		return (builder) -> builder.requestListener(new LazyRequestListener(timer));
	}

	/** Delegates to the timer bean, resolved on first use. */
	private static final class LazyRequestListener implements Sink.RequestListener {

		private final ObjectProvider<KubeEventsRequestTimer> provider;

		private volatile Sink.@Nullable RequestListener delegate;

		LazyRequestListener(ObjectProvider<KubeEventsRequestTimer> provider) {
			this.provider = provider;
		}

		@Override
		public void requestCompleted(String api, String verb, String result, Duration duration) {
			Sink.RequestListener listener = this.delegate;
			if (listener == null) {
				KubeEventsRequestTimer timer = this.provider.getIfAvailable();
				listener = (timer != null) ? timer : Sink.RequestListener.NONE;
				this.delegate = listener;
			}
			listener.requestCompleted(api, verb, result, duration);
		}

	}

}
