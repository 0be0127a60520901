package io.github.kubeevents;

import java.util.Objects;
import java.util.function.Function;

import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.jspecify.annotations.Nullable;

/**
 * The correlator's key functions, composed exactly like client-go's: plain concatenation of the fields with no
 * separator ({@code null} counts as empty).
 *
 * <p>The correlator does not keep these strings: its caches hold a 128-bit hash of the same characters. For a key
 * function of its own it hashes the string the function returns; for the constants {@link #SPAM_KEY},
 * {@link #SPAM_KEY_WITH_REASON} and {@link #AGGREGATE_BY_REASON} it hashes the fields directly, without building
 * the string, and gets the same hash. So prefer the constants to the method references
 * ({@code EventKeys::spamKey}), which give the same keys a little slower.
 *
 * <p>Stateless and thread-safe.
 */
public final class EventKeys {

	/**
	 * {@link #spamKey(CoreV1Event)} as a function; the default of
	 * {@link CorrelatorOptions#spamKeyFunction()}. Stateless and thread-safe.
	 */
	public static final Function<CoreV1Event, String> SPAM_KEY = StringKey.SPAM;

	/**
	 * {@link #spamKeyWithReason(CoreV1Event)} as a function. Stateless and thread-safe.
	 */
	public static final Function<CoreV1Event, String> SPAM_KEY_WITH_REASON = StringKey.SPAM_WITH_REASON;

	/**
	 * {@link #aggregateByReason(CoreV1Event)} as a function; the default of
	 * {@link CorrelatorOptions#aggregateKeyFunction()}. Stateless and thread-safe.
	 */
	public static final Function<CoreV1Event, AggregateKey> AGGREGATE_BY_REASON = AggregateKeys.BY_REASON;

	/** Read only: stands in for a missing involvedObject, whose fields all count as empty. */
	private static final V1ObjectReference EMPTY_REF = new V1ObjectReference();

	private EventKeys() {
	}

	/**
	 * The full identity of an event ({@code getEventKey}), used by the {@link EventObserver}: source component
	 * and host, involved object kind, namespace, name, fieldPath, uid, apiVersion, then type, reason and
	 * message.
	 * @param event the event
	 * @return the key
	 */
	public static String eventKey(CoreV1Event event) {
		return writeEventKey(event, new StringParts()).toString();
	}

	/**
	 * The default spam key ({@code getSpamKey}): source component and host, involved object kind, namespace,
	 * name, uid, apiVersion, and type. Reason, fieldPath and message are not part of it, so one object's budget
	 * is shared by all its reasons.
	 * @param event the event
	 * @return the key
	 */
	public static String spamKey(CoreV1Event event) {
		return spamKey(event, new StringParts()).toString();
	}

	/**
	 * {@link #spamKey(CoreV1Event)} plus the reason: one budget per (source, object, type, reason). Not a
	 * client-go default; offered because one flood should not silence an object's other reasons
	 * (kubernetes/kubernetes#136061).
	 * @param event the event
	 * @return the key
	 */
	public static String spamKeyWithReason(CoreV1Event event) {
		return spamKey(event, new StringParts()).add(event.getReason()).toString();
	}

	/**
	 * client-go's {@code EventAggregatorByReasonFunc}: the aggregate key is source component and host, involved
	 * object kind, namespace, name, uid, apiVersion, type, reason, reportingComponent and reportingInstance
	 * (no fieldPath); the local key is the message.
	 * @param event the event
	 * @return the two keys
	 */
	public static AggregateKey aggregateByReason(CoreV1Event event) {
		return new AggregateKey(aggregateKey(event, new StringParts()).toString(), nullToEmpty(event.getMessage()));
	}

	/**
	 * A key function as a {@link KeyWriter}: the fields written directly for {@link #SPAM_KEY} and
	 * {@link #SPAM_KEY_WITH_REASON}, else the string {@code keyFunction} returns.
	 * @return a writer calling {@code keyFunction} once per event
	 */
	static KeyWriter writer(Function<CoreV1Event, String> keyFunction) {
		if (keyFunction instanceof KeyWriter writer) {
			return writer;
		}
		return (event, key) -> key.add(Objects.requireNonNull(keyFunction.apply(event), "key"));
	}

	/**
	 * An aggregate-key function as an {@link AggregateKeyWriter}: the fields written directly for
	 * {@link #AGGREGATE_BY_REASON}, else the strings {@code keyFunction} returns.
	 * @return a writer calling {@code keyFunction} once per event
	 */
	static AggregateKeyWriter aggregateWriter(Function<CoreV1Event, AggregateKey> keyFunction) {
		if (keyFunction instanceof AggregateKeyWriter writer) {
			return writer;
		}
		return (event, aggregateKey) -> {
			AggregateKey keys = keyFunction.apply(event);
			aggregateKey.add(keys.aggregateKey());
			return keys.localKey();
		};
	}

	/** Appends the characters of {@link #eventKey(CoreV1Event)}, from the fields, to {@code parts}. */
	static <P extends KeyParts> P writeEventKey(CoreV1Event event, P parts) {
		V1ObjectReference ref = ref(event);
		parts.add(component(event)).add(host(event)).add(ref.getKind()).add(ref.getNamespace()).add(ref.getName())
			.add(ref.getFieldPath()).add(ref.getUid()).add(ref.getApiVersion()).add(event.getType())
			.add(event.getReason()).add(event.getMessage());
		return parts;
	}

	private static <P extends KeyParts> P spamKey(CoreV1Event event, P parts) {
		V1ObjectReference ref = ref(event);
		parts.add(component(event)).add(host(event)).add(ref.getKind()).add(ref.getNamespace()).add(ref.getName())
			.add(ref.getUid()).add(ref.getApiVersion()).add(event.getType());
		return parts;
	}

	private static <P extends KeyParts> P aggregateKey(CoreV1Event event, P parts) {
		V1ObjectReference ref = ref(event);
		parts.add(component(event)).add(host(event)).add(ref.getKind()).add(ref.getNamespace()).add(ref.getName())
			.add(ref.getUid()).add(ref.getApiVersion()).add(event.getType()).add(event.getReason())
			.add(event.getReportingComponent()).add(event.getReportingInstance());
		return parts;
	}

	private static V1ObjectReference ref(CoreV1Event event) {
		return (event.getInvolvedObject() != null) ? event.getInvolvedObject() : EMPTY_REF;
	}

	private static @Nullable String component(CoreV1Event event) {
		V1EventSource source = event.getSource();
		return (source != null) ? source.getComponent() : null;
	}

	private static @Nullable String host(CoreV1Event event) {
		V1EventSource source = event.getSource();
		return (source != null) ? source.getHost() : null;
	}

	private static String nullToEmpty(@Nullable String value) {
		return (value != null) ? value : "";
	}

	/**
	 * Where a key's parts go, in client-go's order: a string ({@link StringParts}) or a hash
	 * ({@link KeyHash.Builder}). Writing each composition once for both keeps the two from ever disagreeing.
	 */
	interface KeyParts {

		/** Appends a part ({@code null} counts as empty); returns this. */
		KeyParts add(@Nullable String part);

	}

	/** A string key function that can write its key's characters without building the string. */
	@FunctionalInterface
	interface KeyWriter {

		/** Appends the characters of the key of {@code event} to {@code key}. */
		void writeKey(CoreV1Event event, KeyHash.Builder key);

	}

	/** An aggregate-key function that can write its aggregate key's characters without building the string. */
	@FunctionalInterface
	interface AggregateKeyWriter {

		/**
		 * Appends the characters of the aggregate key of {@code event}, and gives its local key. The local key
		 * stays a string: the aggregator hashes it only when it differs from the one it saw last for the aggregate
		 * key (a repeated message costs an {@code equals}).
		 * @param aggregateKey where the aggregate key goes
		 * @return the local key
		 */
		String writeAggregateKey(CoreV1Event event, KeyHash.Builder aggregateKey);

	}

	private static final class StringParts implements KeyParts {

		private final StringBuilder key = new StringBuilder(128);

		@Override
		public StringParts add(@Nullable String part) {
			if (part != null) {
				this.key.append(part);
			}
			return this;
		}

		@Override
		public String toString() {
			return this.key.toString();
		}

	}

	private enum StringKey implements Function<CoreV1Event, String>, KeyWriter {

		SPAM {

			@Override
			public String apply(CoreV1Event event) {
				return spamKey(event);
			}

			@Override
			public void writeKey(CoreV1Event event, KeyHash.Builder key) {
				spamKey(event, key);
			}

			@Override
			public String toString() {
				return "EventKeys.SPAM_KEY";
			}

		},

		SPAM_WITH_REASON {

			@Override
			public String apply(CoreV1Event event) {
				return spamKeyWithReason(event);
			}

			@Override
			public void writeKey(CoreV1Event event, KeyHash.Builder key) {
				spamKey(event, key).add(event.getReason());
			}

			@Override
			public String toString() {
				return "EventKeys.SPAM_KEY_WITH_REASON";
			}

		}

	}

	private enum AggregateKeys implements Function<CoreV1Event, AggregateKey>, AggregateKeyWriter {

		BY_REASON;

		@Override
		public AggregateKey apply(CoreV1Event event) {
			return aggregateByReason(event);
		}

		@Override
		public String writeAggregateKey(CoreV1Event event, KeyHash.Builder aggregateKey) {
			aggregateKey(event, aggregateKey);
			return nullToEmpty(event.getMessage());
		}

		@Override
		public String toString() {
			return "EventKeys.AGGREGATE_BY_REASON";
		}

	}

	/**
	 * The two keys an aggregate-key function returns: events with the same {@code aggregateKey} but different
	 * {@code localKey}s are "similar", and ten of them in the window are folded into one aggregate event.
	 *
	 * <p>Immutable and thread-safe.
	 *
	 * @param aggregateKey groups similar events (by default: source, object, type, reason, reporting fields)
	 * @param localKey tells similar events apart (by default: the message)
	 */
	public record AggregateKey(String aggregateKey, String localKey) {

		/**
		 * Rejects {@code null} keys.
		 */
		public AggregateKey {
			Objects.requireNonNull(aggregateKey, "aggregateKey");
			Objects.requireNonNull(localKey, "localKey");
		}

	}

}
