package io.github.kubeevents.test.assertj;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.RecordedEvent;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.jspecify.annotations.Nullable;

/**
 * The Events of one namespace as an API server stores them, read once, for
 * {@link KubeEventsAssertions#assertThat(ClusterEvents)}. Read through {@code events.k8s.io/v1}, which also lists
 * Events written with core/v1 (they are one resource). Each Event becomes a {@link RecordedEvent} (regarding,
 * related, type, reason, action, note as the message, annotations, reporting controller and instance as the
 * source) with its count: {@code series.count}, else the core/v1 {@code count}, else 1.
 *
 * <pre>{@code
 * await().untilAsserted(() -> assertThat(ClusterEvents.read(cluster, "default"))
 *     .hasWarning("FailedCreate").eventWithReason("FailedCreate").isAbout("Widget", "default", "w-1"));
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class ClusterEvents {

	/**
	 * One stored Event.
	 * @param name the Event object's name
	 * @param event its content
	 * @param count how often it occurred ({@code series.count}, else {@code deprecatedCount}, else 1)
	 */
	public record Entry(String name, RecordedEvent event, int count) {
	}

	private final String namespace;

	private final List<Entry> entries;

	private ClusterEvents(String namespace, List<Entry> entries) {
		this.namespace = namespace;
		this.entries = List.copyOf(entries);
	}

	/**
	 * Reads the Events of {@code namespace} with the cluster's admin identity.
	 * @param cluster the test cluster
	 * @param namespace the namespace
	 * @return the Events, oldest first
	 * @throws IllegalStateException when the API server answers with an error
	 */
	public static ClusterEvents read(KubernetesTestCluster cluster, String namespace) {
		return read(cluster.adminClient(), namespace);
	}

	/**
	 * Reads the Events of {@code namespace}.
	 * @param client a client allowed to list {@code events.events.k8s.io}
	 * @param namespace the namespace
	 * @return the Events, oldest first
	 * @throws IllegalStateException when the API server answers with an error
	 */
	public static ClusterEvents read(ApiClient client, String namespace) {
		Objects.requireNonNull(namespace, "namespace");
		List<EventsV1Event> items;
		try {
			items = new EventsV1Api(client).listNamespacedEvent(namespace).execute().getItems();
		}
		catch (ApiException ex) {
			throw new IllegalStateException("could not list the Events of namespace " + namespace + ": HTTP "
					+ ex.getCode() + " " + ex.getResponseBody(), ex);
		}
		List<Entry> entries = new ArrayList<>();
		for (EventsV1Event item : items) {
			entries.add(entry(item));
		}
		entries.sort(Comparator.comparing((Entry e) -> e.event().timestamp()).thenComparing(Entry::name));
		return new ClusterEvents(namespace, entries);
	}

	/** For tests: Events that were not read from a cluster. */
	static ClusterEvents of(String namespace, List<Entry> entries) {
		return new ClusterEvents(namespace, entries);
	}

	/**
	 * The namespace read.
	 * @return the namespace
	 */
	public String namespace() {
		return this.namespace;
	}

	/**
	 * The Events, oldest first (by event time, else last timestamp, else creation).
	 * @return an immutable list
	 */
	public List<Entry> entries() {
		return this.entries;
	}

	/**
	 * The Events' contents, oldest first.
	 * @return an immutable list
	 */
	public List<RecordedEvent> events() {
		return this.entries.stream().map(Entry::event).toList();
	}

	static Entry entry(EventsV1Event item) {
		V1ObjectMeta meta = Objects.requireNonNullElseGet(item.getMetadata(), V1ObjectMeta::new);
		String name = Objects.requireNonNullElse(meta.getName(), "");
		EventType type = EventType.fromValue(item.getType())
			.orElseThrow(() -> new IllegalStateException("Event " + name + " has type " + item.getType()
					+ ", neither Normal nor Warning"));
		String component = firstNonBlank(item.getReportingController(),
				(item.getDeprecatedSource() != null) ? item.getDeprecatedSource().getComponent() : null, "<none>");
		String host = firstNonBlank(item.getReportingInstance(),
				(item.getDeprecatedSource() != null) ? item.getDeprecatedSource().getHost() : null, "");
		RecordedEvent event = new RecordedEvent(reference(item.getRegarding()),
				(item.getRelated() != null) ? reference(item.getRelated()) : null, type,
				Objects.requireNonNullElse(item.getReason(), ""), item.getAction(),
				Objects.requireNonNullElse(item.getNote(), ""),
				Objects.requireNonNullElse(meta.getAnnotations(), Map.of()), new EventSource(component, host),
				timestamp(item, meta));
		int count = (item.getSeries() != null && item.getSeries().getCount() != null) ? item.getSeries().getCount()
				: Objects.requireNonNullElse(item.getDeprecatedCount(), 1);
		return new Entry(name, event, count);
	}

	private static InvolvedObject reference(@Nullable V1ObjectReference reference) {
		if (reference == null || reference.getName() == null || reference.getName().isEmpty()) {
			return InvolvedObject.of(null, null, null, "<none>");
		}
		return InvolvedObject.of(reference);
	}

	private static Instant timestamp(EventsV1Event item, V1ObjectMeta meta) {
		for (OffsetDateTime time : new OffsetDateTime[] { item.getEventTime(), item.getDeprecatedLastTimestamp(),
				meta.getCreationTimestamp() }) {
			if (time != null) {
				return time.toInstant();
			}
		}
		return Instant.EPOCH;
	}

	private static String firstNonBlank(@Nullable String first, @Nullable String second, String fallback) {
		if (first != null && !first.isBlank()) {
			return first;
		}
		return (second != null && !second.isBlank()) ? second : fallback;
	}

}
