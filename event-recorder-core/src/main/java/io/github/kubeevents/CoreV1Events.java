package io.github.kubeevents;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;

import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.CoreV1EventSeries;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.jspecify.annotations.Nullable;

/**
 * core/v1 Events from recorded events (client-go's {@code makeEvent}), and their timestamps.
 *
 * <p>Stateless and thread-safe.
 */
final class CoreV1Events {

	private CoreV1Events() {
	}

	/**
	 * The core/v1 Event of a recorded event, as client-go's recorder builds it: name
	 * {@code <object>.<hex nanos>} (or a UUID), the object's namespace (or {@code default}),
	 * {@code firstTimestamp = lastTimestamp} in whole seconds, {@code count: 1}, {@code source} and
	 * {@code reportingComponent}/{@code reportingInstance} from the recorder's source, no {@code eventTime}. Unlike
	 * client-go's adapter, {@code related} and {@code action} are written when given. A new Event each call.
	 */
	static CoreV1Event of(RecordedEvent event) {
		OffsetDateTime time = timestamp(event.timestamp());
		CoreV1Event result = new CoreV1Event();
		result.setMetadata(new V1ObjectMeta().name(EventNames.generate(event))
			.namespace(event.eventNamespace())
			.annotations(event.annotations().isEmpty() ? null : new LinkedHashMap<>(event.annotations())));
		result.setInvolvedObject(event.regarding().toV1ObjectReference());
		result.setRelated((event.related() != null) ? event.related().toV1ObjectReference() : null);
		result.setReason(event.reason());
		result.setMessage(event.message());
		result.setType(event.type().value());
		result.setAction(event.action());
		result.setFirstTimestamp(time);
		result.setLastTimestamp(time);
		result.setCount(1);
		result.setSource(new V1EventSource().component(event.source().component()).host(event.source().host()));
		result.setReportingComponent(event.source().component());
		result.setReportingInstance(event.source().host());
		return result;
	}

	/**
	 * An event timestamp as the API server stores it: UTC, whole seconds (core/v1 {@code metav1.Time}),
	 * whatever the JVM's default time zone. Allocates no time-zone rules.
	 */
	static OffsetDateTime timestamp(Instant time) {
		return timestamp(time.getEpochSecond());
	}

	/** {@link #timestamp(Instant)} of a whole second. */
	static OffsetDateTime timestamp(long epochSecond) {
		return OffsetDateTime.of(LocalDateTime.ofEpochSecond(epochSecond, 0, ZoneOffset.UTC), ZoneOffset.UTC);
	}

	/**
	 * A copy of every field the correlator and sink read or write, deep enough that changing the copy never
	 * changes the original.
	 */
	static CoreV1Event copy(CoreV1Event event) {
		CoreV1Event copy = new CoreV1Event();
		V1ObjectMeta meta = event.getMetadata();
		if (meta != null) {
			copy.setMetadata(new V1ObjectMeta().name(meta.getName())
				.namespace(meta.getNamespace())
				.resourceVersion(meta.getResourceVersion())
				.uid(meta.getUid())
				.creationTimestamp(meta.getCreationTimestamp())
				.annotations((meta.getAnnotations() != null) ? new LinkedHashMap<>(meta.getAnnotations()) : null)
				.labels((meta.getLabels() != null) ? new LinkedHashMap<>(meta.getLabels()) : null));
		}
		copy.setApiVersion(event.getApiVersion());
		copy.setKind(event.getKind());
		copy.setInvolvedObject(copy(event.getInvolvedObject()));
		copy.setRelated(copy(event.getRelated()));
		copy.setReason(event.getReason());
		copy.setMessage(event.getMessage());
		V1EventSource source = event.getSource();
		if (source != null) {
			copy.setSource(new V1EventSource().component(source.getComponent()).host(source.getHost()));
		}
		copy.setFirstTimestamp(event.getFirstTimestamp());
		copy.setLastTimestamp(event.getLastTimestamp());
		copy.setEventTime(event.getEventTime());
		CoreV1EventSeries series = event.getSeries();
		if (series != null) {
			copy.setSeries(new CoreV1EventSeries().count(series.getCount()).lastObservedTime(series.getLastObservedTime()));
		}
		copy.setCount(event.getCount());
		copy.setType(event.getType());
		copy.setAction(event.getAction());
		copy.setReportingComponent(event.getReportingComponent());
		copy.setReportingInstance(event.getReportingInstance());
		return copy;
	}

	static @Nullable V1ObjectReference copy(@Nullable V1ObjectReference ref) {
		if (ref == null) {
			return null;
		}
		return new V1ObjectReference().kind(ref.getKind())
			.apiVersion(ref.getApiVersion())
			.namespace(ref.getNamespace())
			.name(ref.getName())
			.uid(ref.getUid())
			.resourceVersion(ref.getResourceVersion())
			.fieldPath(ref.getFieldPath());
	}

}
