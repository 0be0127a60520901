package io.github.kubeevents.autoconfigure.testapp;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import io.github.kubeevents.autoconfigure.CorrelatorOptionsCustomizer;
import io.github.kubeevents.autoconfigure.EventBroadcasterCustomizer;
import io.github.kubeevents.autoconfigure.InMemoryEventSink;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A minimal application for the HTTP tests: an in-memory sink (so no cluster is needed) and a fixed clock.
 */
@SpringBootApplication
public class KubeEventsTestApplication {

	/** The instant of every event and snapshot. */
	public static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

	@Bean
	InMemoryEventSink inMemoryEventSink() {
		return new InMemoryEventSink();
	}

	@Bean
	EventBroadcasterCustomizer fixedBroadcasterClock() {
		return (builder) -> builder.clock(Clock.fixed(NOW, ZoneOffset.UTC));
	}

	@Bean
	CorrelatorOptionsCustomizer fixedCorrelatorClock() {
		return (builder) -> builder.clock(Clock.fixed(NOW, ZoneOffset.UTC));
	}

}
