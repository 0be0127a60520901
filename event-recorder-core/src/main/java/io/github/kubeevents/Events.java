package io.github.kubeevents;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.UUID;
import java.util.regex.Pattern;

import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;

/**
 * Helpers for core/v1 Events: name generation, timestamps and copies.
 *
 * <p>Stateless and thread-safe.
 */
public final class Events {

	/** Longest valid DNS-1123 subdomain. */
	public static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

	private static final Pattern DNS1123_SUBDOMAIN = Pattern
		.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

	private Events() {
	}

	/**
	 * Generates an event name like client-go's {@code GenerateEventName}: {@code <refName>.<lowercase hex of the
	 * Unix time in nanoseconds>}, e.g. {@code test-pod.178959f726d80ec}; when that is not a valid DNS-1123
	 * subdomain (uppercase letters, {@code :}, longer than 253 characters, ...) a random UUID instead.
	 * @param refName the involved object's name
	 * @param time the event time
	 * @return a valid event name
	 */
	public static String generateName(String refName, Instant time) {
		String name = refName + "." + Long.toHexString(unixNanos(time));
		return isDns1123Subdomain(name) ? name : UUID.randomUUID().toString();
	}

	/**
	 * Nanoseconds since the Unix epoch.
	 * @param time the instant
	 * @return {@code time} in Unix nanoseconds
	 */
	public static long unixNanos(Instant time) {
		return Math.addExact(Math.multiplyExact(time.getEpochSecond(), 1_000_000_000L), time.getNano());
	}

	/**
	 * Whether {@code value} is a DNS-1123 subdomain (at most 253 characters of lowercase alphanumerics, {@code -}
	 * and {@code .}, starting and ending alphanumeric).
	 * @param value the value, may be {@code null}
	 * @return {@code true} when valid
	 */
	public static boolean isDns1123Subdomain(String value) {
		return value != null && !value.isEmpty() && value.length() <= DNS1123_SUBDOMAIN_MAX_LENGTH
				&& DNS1123_SUBDOMAIN.matcher(value).matches();
	}

	/**
	 * An event timestamp as the API server stores it: UTC, whole seconds (core/v1 {@code metav1.Time}), whatever
	 * the JVM's default time zone.
	 * @param time the instant
	 * @return the timestamp
	 */
	public static OffsetDateTime timestamp(Instant time) {
		return OffsetDateTime.ofInstant(time.truncatedTo(ChronoUnit.SECONDS), ZoneOffset.UTC);
	}

	/**
	 * A copy of every field the recorder, correlator and sink read or write, deep enough that changing the copy
	 * (metadata, counts, timestamps, message, involved object, source) never changes the original.
	 * @param event the event to copy
	 * @return the copy
	 */
	public static CoreV1Event copy(CoreV1Event event) {
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
		copy.setCount(event.getCount());
		copy.setType(event.getType());
		copy.setAction(event.getAction());
		copy.setSeries(event.getSeries());
		copy.setReportingComponent(event.getReportingComponent());
		copy.setReportingInstance(event.getReportingInstance());
		return copy;
	}

	/**
	 * A copy of an object reference.
	 * @param ref the reference, may be {@code null}
	 * @return the copy, or {@code null}
	 */
	public static V1ObjectReference copy(V1ObjectReference ref) {
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

	/**
	 * {@code ns/name} of the involved object, or {@code name} when it has no namespace, as in client-go's
	 * structured log line.
	 * @param event the event
	 * @return the object's display key
	 */
	public static String objectKey(CoreV1Event event) {
		V1ObjectReference ref = event.getInvolvedObject();
		if (ref == null) {
			return "";
		}
		String ns = ref.getNamespace();
		return (ns == null || ns.isEmpty()) ? String.valueOf(ref.getName()) : ns + "/" + ref.getName();
	}

	/**
	 * A one-line description of an event for log lines: object, kind, type, reason, name and count.
	 * @param event the event, may be {@code null}
	 * @return e.g. {@code object="ns/web-0" kind="Pod" type="Warning" reason="BackOff" name="web-0.18ab" count=1}
	 */
	public static String describe(CoreV1Event event) {
		if (event == null) {
			return "null";
		}
		return "object=\"" + objectKey(event) + "\" kind=\""
				+ ((event.getInvolvedObject() != null) ? event.getInvolvedObject().getKind() : null) + "\" type=\""
				+ event.getType() + "\" reason=\"" + event.getReason() + "\" name=\""
				+ ((event.getMetadata() != null) ? event.getMetadata().getName() : null) + "\" count="
				+ event.getCount();
	}

}
