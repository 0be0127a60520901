package io.github.kubeevents;

import java.time.Instant;
import java.util.Formattable;
import java.util.Locale;
import java.util.Map;
import java.util.MissingFormatArgumentException;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One call to an {@link EventRecorder}, as handed to {@link EventRecorder#record(EventSpec)}, before any
 * validation: the arguments of client-go's most general method, {@code AnnotatedEventf(regarding, related,
 * annotations, type, reason, action, note, args...)}. Applications never build these; implementations of
 * {@link EventRecorder} (decorators, test doubles) read them, may pass a changed copy on, and turn them into the
 * event exactly as the library's own recorder does with {@link #toRecordedEvent(EventSource, Instant)}.
 *
 * <p><b>The regarding object</b> is kept as the caller passed it, so that a failure to reference it becomes a
 * counted drop instead of an exception in the caller. It is referenced by {@code adapter} when one is given
 * ({@link EventRecorder#about(Object, InvolvedObject.Adapter)}), else by {@link InvolvedObject#from(Object)}: an
 * {@link InvolvedObject}, an object of the official Java client ({@code KubernetesObject}) or a
 * {@code V1ObjectReference}.
 *
 * <p><b>One formatting rule</b> for every entry point: {@code message} is a {@link String#format} pattern (in
 * {@link Locale#ROOT}) only when {@code args} are given; without arguments it is used verbatim, so
 * {@code "Disk 100% full"} is safe. A pattern that fails to format with its arguments does not lose the event: the
 * message becomes the pattern verbatim, a mark and the arguments, as client-go's {@code fmt} marks a bad verb
 * ({@code %!d(MISSING)}) instead of failing, e.g. {@code Disk %d full %!(BADFORMAT IllegalFormatConversionException:
 * d != java.lang.String) %!(ARGS disk-1)}.
 *
 * <p>Immutable as far as its arguments are (the format arguments are not copied); thread-safe.
 *
 * @param regarding the object the event is about, as the caller passed it; {@code null} is invalid input
 * @param adapter references {@code regarding}; {@code null} for the built-in references of
 * {@link InvolvedObject#from(Object)}
 * @param related an optional second object (events.k8s.io/v1 {@code related}, also written on core/v1)
 * @param annotations annotations for the Event's metadata; empty when none ({@code null} is stored as empty)
 * @param type Normal or Warning; {@code null} is invalid input
 * @param reason short UpperCamelCase reason, e.g. {@code FailedCreate}; {@code null} or empty is invalid input
 * @param action what the reporter did or failed to do, e.g. {@code Scheduling}; required by events.k8s.io/v1
 * (the recorder then uses the reason when it is {@code null}), written on core/v1 when set
 * @param message the message (events.k8s.io/v1 {@code note}), or its format pattern when {@code args} are given
 * @param args {@link String#format} arguments; {@code null} or empty when {@code message} is used verbatim
 */
public record EventSpec(@Nullable Object regarding, InvolvedObject.@Nullable Adapter<Object> adapter,
		@Nullable InvolvedObject related, Map<String, String> annotations, @Nullable EventType type,
		@Nullable String reason, @Nullable String action, @Nullable String message, Object @Nullable [] args) {

	/** What starts the mark of a message whose pattern failed to format. */
	static final String BAD_FORMAT_MARK = "%!(BADFORMAT ";

	/**
	 * Normalises {@code null} annotations to an empty map (they are copied when the event is built).
	 */
	public EventSpec {
		if (annotations == null) {
			annotations = Map.of();
		}
	}

	/**
	 * A call about {@code regarding} with a message used verbatim, without related object, action or annotations.
	 * @param regarding the object the event is about
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param message the message, used as is
	 * @return the call
	 */
	public static EventSpec of(@Nullable Object regarding, @Nullable EventType type, @Nullable String reason,
			@Nullable String message) {
		return new EventSpec(regarding, null, null, Map.of(), type, reason, null, message, null);
	}

	/**
	 * This call with other annotations (for decorators).
	 * @param annotations the annotations, {@code null} for none
	 * @return a copy
	 */
	public EventSpec withAnnotations(@Nullable Map<String, String> annotations) {
		return new EventSpec(this.regarding, this.adapter, this.related, annotations, this.type, this.reason,
				this.action, this.message, this.args);
	}

	/**
	 * The reference of the regarding object: by the {@link #adapter()} when one is given, else
	 * {@link InvolvedObject#from(Object)}.
	 * @return the reference
	 * @throws IllegalArgumentException naming the problem when there is no object, or it cannot be referenced
	 * (an adapter's exception, checked ones included, is wrapped in one)
	 */
	public InvolvedObject regardingReference() {
		Object object = this.regarding;
		if (object == null) {
			throw new IllegalArgumentException("involved object is null");
		}
		if (this.adapter == null) {
			return InvolvedObject.from(object);
		}
		InvolvedObject reference;
		try {
			reference = this.adapter.adapt(object);
		}
		catch (IllegalArgumentException ex) {
			throw ex;
		}
		catch (Throwable ex) {
			// also checked exceptions an adapter throws undeclared (Kotlin, @SneakyThrows), and an Error such as an
			// AssertionError; only the JVM's own failures reach the caller
			Throwables.rethrowIfFatal(ex);
			throw new IllegalArgumentException(
					"the InvolvedObject.Adapter failed on " + object.getClass().getName() + ": " + ex, ex);
		}
		if (reference == null) {
			throw new IllegalArgumentException(
					"the InvolvedObject.Adapter returned null for " + object.getClass().getName());
		}
		return reference;
	}

	/**
	 * The message by the one formatting rule: {@code message} verbatim without arguments, else formatted; a
	 * pattern that fails to format gives the pattern, a mark and the arguments (see the class comment).
	 * @return the message, never {@code null} ({@code ""} for none)
	 */
	public String formattedMessage() {
		return format(this.message, this.args).text();
	}

	/**
	 * The event of this call, exactly as the library's recorder builds it (client-go's {@code generateEvent}):
	 * checks the type and reason, references the regarding object and formats the message by the one rule.
	 * @param source the reporting component and host
	 * @param timestamp the recording time
	 * @return the event
	 * @throws IllegalArgumentException naming what makes the call invalid (no type, no reason, an object that
	 * cannot be referenced); a message that fails to format is not invalid
	 */
	public RecordedEvent toRecordedEvent(EventSource source, Instant timestamp) {
		return build(source, timestamp, format(this.message, this.args).text(), null);
	}

	/**
	 * {@link #toRecordedEvent(EventSource, Instant)} with the recorder's message limit
	 * ({@link EventBroadcaster.Builder#maxMessageBytes(int)}), as the library's recorder applies it.
	 * @param source the reporting component and host
	 * @param timestamp the recording time
	 * @param maxMessageBytes the largest formatted message accepted, in UTF-8 bytes
	 * @return the event
	 * @throws IllegalArgumentException as {@link #toRecordedEvent(EventSource, Instant)} does, and when the
	 * formatted message is longer than {@code maxMessageBytes}
	 */
	public RecordedEvent toRecordedEvent(EventSource source, Instant timestamp, int maxMessageBytes) {
		String text = format(this.message, this.args).text();
		requireWithinLimit(text, maxMessageBytes);
		return build(source, timestamp, text, null);
	}

	/** Throws naming both sizes when {@code message} is more than {@code maxBytes} UTF-8 bytes. */
	static void requireWithinLimit(String message, int maxBytes) {
		if (WireText.exceeds(message, maxBytes)) {
			throw new IllegalArgumentException(
					"message is " + WireText.utf8Length(message) + " UTF-8 bytes, more than the limit of " + maxBytes);
		}
	}

	/**
	 * The event of this call as a recorder publishes it: its message formatted and held to {@code maxMessageBytes},
	 * with the recording thread's trace context; a pattern that fails to format is recorded with its arguments and
	 * counted ({@link EventCounters#formatFailed}).
	 * @throws IllegalArgumentException as {@link #toRecordedEvent(EventSource, Instant, int)} does
	 */
	RecordedEvent build(EventSource source, Instant timestamp, int maxMessageBytes,
			@Nullable TraceContext traceContext, EventCounters counters) {
		Formatted message = format(this.message, this.args);
		requireWithinLimit(message.text(), maxMessageBytes);
		RecordedEvent event = build(source, timestamp, message.text(), traceContext);
		if (message.failure() != null) {
			counters.formatFailed(event, this.message, message.failure());
		}
		return event;
	}

	/** The event of this call, with the recording thread's trace context ({@code null} for none). */
	RecordedEvent build(EventSource source, Instant timestamp, String formattedMessage,
			@Nullable TraceContext traceContext) {
		Objects.requireNonNull(source, "source");
		Objects.requireNonNull(timestamp, "timestamp");
		if (this.type == null) {
			throw new IllegalArgumentException("event type is null (must be Normal or Warning)");
		}
		if (this.reason == null || this.reason.isEmpty()) {
			throw new IllegalArgumentException("reason is " + ((this.reason == null) ? "null" : "empty"));
		}
		InvolvedObject reference = regardingReference();
		return new RecordedEvent(reference, this.related, this.type, this.reason,
				(this.action == null || this.action.isEmpty()) ? null : this.action, formattedMessage,
				this.annotations, source, timestamp, traceContext);
	}

	/**
	 * A one-line description of the call for drop lines, naming the object without referencing it (which may be
	 * what failed): {@code object=<toString of the object> type="Warning" reason="Full"}.
	 */
	String describe() {
		return "object=" + InvolvedObject.describe(this.regarding) + " type="
				+ LogText.quoted(String.valueOf(this.type)) + " reason=" + LogText.quoted(this.reason);
	}

	/** A formatted message, and why its pattern failed to format, if it did. */
	record Formatted(String text, @Nullable Throwable failure) {
	}

	/**
	 * Formats by the one rule, with a fast path for patterns made only of {@code %s} (of arguments that are not
	 * {@link Formattable}) and {@code %%}, which gives exactly what {@link String#format} gives.
	 */
	static Formatted format(@Nullable String message, Object @Nullable [] args) {
		if (message == null) {
			return new Formatted("", null);
		}
		if (args == null || args.length == 0) {
			return new Formatted(message, null);
		}
		try {
			String fast = formatSimple(message, args);
			return new Formatted((fast != null) ? fast : String.format(Locale.ROOT, message, args), null);
		}
		catch (Throwable ex) {
			// IllegalFormatException, or an argument's toString/formatTo that failed (possibly with an undeclared
			// checked exception, or an Error such as an AssertionError)
			Throwables.rethrowIfFatal(ex);
			return new Formatted(marked(message, args, ex), ex);
		}
	}

	private static String marked(String pattern, Object[] args, Throwable failure) {
		StringBuilder text = new StringBuilder(pattern.length() + 64).append(pattern)
			.append(' ')
			.append(BAD_FORMAT_MARK)
			.append(failure.getClass().getSimpleName());
		if (failure.getMessage() != null) {
			text.append(": ").append(failure.getMessage());
		}
		text.append(") %!(ARGS ");
		for (int i = 0; i < args.length; i++) {
			text.append((i > 0) ? ", " : "").append(argument(args[i]));
		}
		return text.append(')').toString();
	}

	private static String argument(@Nullable Object arg) {
		try {
			return String.valueOf(arg);
		}
		catch (Throwable ex) {
			Throwables.rethrowIfFatal(ex);
			return arg.getClass().getName() + "(toString failed: " + ex.getClass().getSimpleName() + ")";
		}
	}

	private static @Nullable String formatSimple(String pattern, Object[] args) {
		int percent = pattern.indexOf('%');
		if (percent < 0) {
			return pattern;
		}
		StringBuilder out = new StringBuilder(pattern.length() + 16 * args.length);
		int from = 0;
		int next = 0;
		while (percent >= 0) {
			if (percent + 1 >= pattern.length()) {
				return null;
			}
			char conversion = pattern.charAt(percent + 1);
			out.append(pattern, from, percent);
			if (conversion == '%') {
				out.append('%');
			}
			else if (conversion == 's') {
				if (next >= args.length) {
					throw new MissingFormatArgumentException("%s");
				}
				Object arg = args[next++];
				if (arg instanceof Formattable) {
					return null;
				}
				out.append(arg);
			}
			else {
				return null;
			}
			from = percent + 2;
			percent = pattern.indexOf('%', from);
		}
		return out.append(pattern, from, pattern.length()).toString();
	}

}
