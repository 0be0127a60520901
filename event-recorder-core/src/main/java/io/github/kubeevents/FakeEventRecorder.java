package io.github.kubeevents;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;

/**
 * An {@link EventRecorder} for tests, like client-go's {@code FakeRecorder}s: it writes nothing and keeps every
 * recorded event, both structured ({@link #recordedEvents()}) and as client-go's strings ({@link #events()},
 * {@link #events(Format)}).
 *
 * <p>It turns calls into events exactly as the real recorder does ({@link EventSpec#toRecordedEvent}: the same
 * validation, the same formatting rule and the same message limit, 1 MiB unless given); invalid calls are not
 * captured but listed in {@link #invalidInputs()}. Unlike client-go's, it never blocks (it keeps everything in
 * memory) and formats with Java's {@link String#format}.
 *
 * <p>Thread-safe.
 */
public final class FakeEventRecorder implements EventRecorder {

	/** The source of captured events unless another is given. */
	public static final EventSource DEFAULT_SOURCE = new EventSource("fake-recorder", "");

	/** The strings of client-go's two fake recorders. */
	public enum Format {

		/** {@code record.FakeRecorder}: {@code "<type> <reason> <message>"}, then {@code " map[k:v]"}. */
		RECORD,

		/**
		 * {@code record.FakeRecorder} with {@code IncludeObject}: {@link #RECORD} with
		 * {@code " involvedObject{kind=<kind>,apiVersion=<apiVersion>}"} before the annotations.
		 */
		RECORD_WITH_OBJECT,

		/** {@code events.FakeRecorder}: {@code "<type> <reason> <note>"} (the action is not included). */
		EVENTS,

		/**
		 * {@code events.FakeRecorder} with {@code Verbose}: {@code "<type> <reason> <action> <note>"}, then
		 * {@code " {kind=K,apiVersion=G/V}"} for the regarding and the related object, then {@code " map[k:v]"}.
		 */
		EVENTS_VERBOSE

	}

	private final EventSource source;

	private final Clock clock;

	private final int maxMessageBytes;

	private final List<RecordedEvent> recorded = new CopyOnWriteArrayList<>();

	private final List<String> invalid = new CopyOnWriteArrayList<>();

	/** A recorder with {@link #DEFAULT_SOURCE}, the system clock and the default message limit. */
	public FakeEventRecorder() {
		this(DEFAULT_SOURCE, Clock.systemUTC());
	}

	/**
	 * A recorder with the default message limit ({@link EventBroadcaster.Builder#DEFAULT_MAX_MESSAGE_BYTES}).
	 * @param source the source written into captured events
	 * @param clock the clock of their timestamps
	 */
	public FakeEventRecorder(EventSource source, Clock clock) {
		this(source, clock, EventBroadcaster.Builder.DEFAULT_MAX_MESSAGE_BYTES);
	}

	/**
	 * A recorder.
	 * @param source the source written into captured events
	 * @param clock the clock of their timestamps
	 * @param maxMessageBytes the largest message captured, in UTF-8 bytes, as
	 * {@link EventBroadcaster.Builder#maxMessageBytes(int)}; longer ones are listed as invalid input
	 * @throws IllegalArgumentException when {@code maxMessageBytes} is below 1
	 */
	public FakeEventRecorder(EventSource source, Clock clock, int maxMessageBytes) {
		if (maxMessageBytes < 1) {
			throw new IllegalArgumentException("maxMessageBytes must be at least 1, was " + maxMessageBytes);
		}
		this.source = Objects.requireNonNull(source, "source");
		this.clock = Objects.requireNonNull(clock, "clock");
		this.maxMessageBytes = maxMessageBytes;
	}

	@Override
	public void record(@Nullable EventSpec spec) {
		if (spec == null) {
			this.invalid.add("the spec is null");
			return;
		}
		try {
			this.recorded.add(spec.toRecordedEvent(this.source, this.clock.instant(), this.maxMessageBytes));
		}
		catch (RuntimeException ex) {
			this.invalid.add(ex.getMessage());
		}
	}

	/**
	 * Every captured event, in order.
	 * @return an immutable copy
	 */
	public List<RecordedEvent> recordedEvents() {
		return List.copyOf(this.recorded);
	}

	/**
	 * Every captured event in the format of client-go's {@code record.FakeRecorder}.
	 * @return an immutable list of strings
	 */
	public List<String> events() {
		return events(Format.RECORD);
	}

	/**
	 * Every captured event in one of client-go's formats.
	 * @param format the format
	 * @return an immutable list of strings
	 */
	public List<String> events(Format format) {
		return this.recorded.stream().map((event) -> render(event, format)).toList();
	}

	/**
	 * Why invalid calls were not captured, in order.
	 * @return an immutable copy
	 */
	public List<String> invalidInputs() {
		return List.copyOf(this.invalid);
	}

	/** Forgets everything captured. */
	public void clear() {
		this.recorded.clear();
		this.invalid.clear();
	}

	/**
	 * One event as a client-go fake recorder renders it.
	 * @param event the event
	 * @param format the format
	 * @return e.g. {@code "Warning FailedCreate Error creating: boom"}
	 */
	public static String render(RecordedEvent event, Format format) {
		StringBuilder text = new StringBuilder().append(event.type().value()).append(' ').append(event.reason());
		if (format == Format.EVENTS_VERBOSE) {
			text.append(' ').append((event.action() != null) ? event.action() : "");
		}
		text.append(' ').append(event.message());
		if (format == Format.RECORD_WITH_OBJECT) {
			text.append(" involvedObject");
			kindAndApiVersion(text, event.regarding());
		}
		if (format == Format.EVENTS_VERBOSE) {
			objectString(text, event.regarding());
			objectString(text, event.related());
		}
		if (!event.annotations().isEmpty()) {
			text.append(" map[");
			boolean first = true;
			for (Map.Entry<String, String> entry : new TreeMap<>(event.annotations()).entrySet()) {
				text.append(first ? "" : " ").append(entry.getKey()).append(':').append(entry.getValue());
				first = false;
			}
			text.append(']');
		}
		return text.toString();
	}

	private static void objectString(StringBuilder text, @Nullable InvolvedObject object) {
		if (object != null && (object.kind() != null || object.apiVersion() != null)) {
			text.append(' ');
			kindAndApiVersion(text, object);
		}
	}

	private static void kindAndApiVersion(StringBuilder text, InvolvedObject object) {
		text.append("{kind=")
			.append((object.kind() != null) ? object.kind() : "")
			.append(",apiVersion=")
			.append((object.apiVersion() != null) ? object.apiVersion() : "")
			.append('}');
	}

}
