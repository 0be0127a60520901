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
import io.kubernetes.client.common.KubernetesObject;
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
 * <p>Test classes that share a cluster (and so a namespace) see each other's Events: narrow the snapshot to the
 * object the test is about with {@link #about(String, String, String)} (or its {@link InvolvedObject} and
 * client-java object overloads), so that assertions count only that object's Events:
 * <pre>{@code
 * await().untilAsserted(() -> assertThat(ClusterEvents.read(cluster, "default").about("Widget", "default", "w-1"))
 *     .hasWarning("FailedCreate").eventWithReason("FailedCreate").hasMessage("Error creating widget w-1: quota exceeded"));
 * }</pre>
 * A failure message of a narrowed snapshot names the object and the other objects the namespace holds Events about,
 * so that a typo in a name shows at once.
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

	/** How many of the other objects a failure message of a narrowed snapshot names. */
	private static final int OTHER_OBJECTS_SHOWN = 10;

	private final String namespace;

	private final List<Entry> entries;

	/** The object the snapshot is narrowed to, as {@link Descriptions#object} renders it; {@code null}: all. */
	private final @Nullable String about;

	/** The namespace's Events that {@link #about} left out. */
	private final List<Entry> others;

	private ClusterEvents(String namespace, List<Entry> entries, @Nullable String about, List<Entry> others) {
		this.namespace = namespace;
		this.entries = List.copyOf(entries);
		this.about = about;
		this.others = List.copyOf(others);
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
		return new ClusterEvents(namespace, entries, null, List.of());
	}

	/** For tests: Events that were not read from a cluster. */
	static ClusterEvents of(String namespace, List<Entry> entries) {
		return new ClusterEvents(namespace, entries, null, List.of());
	}

	/**
	 * The Events about one object: those whose {@code regarding} (core/v1 {@code involvedObject}) has this kind,
	 * namespace and name. Its apiVersion, uid and fieldPath are not compared. Narrowing a narrowed snapshot keeps
	 * what both filters match.
	 * @param kind the object's kind, e.g. {@code Pod}
	 * @param namespace the object's namespace; {@code null} for a cluster-scoped object (a Node, a Namespace), whose
	 * Events the recorder writes to namespace {@code default}
	 * @param name the object's name
	 * @return a new snapshot with only that object's Events, oldest first
	 */
	public ClusterEvents about(String kind, @Nullable String namespace, String name) {
		Objects.requireNonNull(kind, "kind");
		Objects.requireNonNull(name, "name");
		String objectNamespace = (namespace == null || namespace.isEmpty()) ? null : namespace;
		List<Entry> matching = new ArrayList<>();
		List<Entry> left = new ArrayList<>(this.others);
		for (Entry entry : this.entries) {
			InvolvedObject regarding = entry.event().regarding();
			boolean same = kind.equals(regarding.kind()) && Objects.equals(objectNamespace, regarding.namespace())
					&& name.equals(regarding.name());
			(same ? matching : left).add(entry);
		}
		String object = Descriptions.object(kind, objectNamespace, name);
		return new ClusterEvents(this.namespace, matching, (this.about != null) ? this.about + " and " + object : object,
				left);
	}

	/**
	 * The Events about one object, by the kind, namespace and name of {@code object} (see
	 * {@link #about(String, String, String)}).
	 * @param object the object, e.g. the reference the code under test recorded with
	 * @return a new snapshot with only that object's Events
	 * @throws IllegalArgumentException when the reference has no kind
	 */
	public ClusterEvents about(InvolvedObject object) {
		Objects.requireNonNull(object, "object");
		if (object.kind() == null) {
			throw new IllegalArgumentException("the object has no kind: " + object);
		}
		return about(object.kind(), object.namespace(), object.name());
	}

	/**
	 * The Events about one object of the official Java client, by its kind, namespace and name (see
	 * {@link #about(String, String, String)}); a model object without kind, as a list call returns it, gets it from
	 * its class as {@link InvolvedObject#of(KubernetesObject)} does.
	 * @param object the object, e.g. the {@code V1Pod} the test created
	 * @return a new snapshot with only that object's Events
	 * @throws IllegalArgumentException when the object has no name, or no kind and its class maps to none
	 */
	public ClusterEvents about(KubernetesObject object) {
		return about(InvolvedObject.of(object));
	}

	/**
	 * The namespace read.
	 * @return the namespace
	 */
	public String namespace() {
		return this.namespace;
	}

	/**
	 * What the snapshot holds, for failure messages.
	 * @return {@code namespace <ns>}, then {@code about <Kind ns/name>} when narrowed
	 */
	String scope() {
		return "namespace " + this.namespace + ((this.about != null) ? " about " + this.about : "");
	}

	/**
	 * For a narrowed snapshot's failure message: the other objects the namespace holds Events about.
	 * @return e.g. {@code "2 other Events in namespace shop are about: Pod shop/web-1, Widget shop/w-2"}, or
	 * {@code null} when not narrowed or there are none
	 */
	@Nullable String othersNote() {
		if (this.about == null || this.others.isEmpty()) {
			return null;
		}
		List<String> objects = this.others.stream()
			.map((e) -> Descriptions.object(e.event().regarding()))
			.distinct()
			.sorted()
			.toList();
		String shown = String.join(", ", objects.subList(0, Math.min(objects.size(), OTHER_OBJECTS_SHOWN)))
				+ ((objects.size() > OTHER_OBJECTS_SHOWN) ? ", ..." : "");
		return this.others.size() + " other Event" + ((this.others.size() == 1) ? " in namespace " + this.namespace
				+ " is" : "s in namespace " + this.namespace + " are") + " about: " + shown;
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
