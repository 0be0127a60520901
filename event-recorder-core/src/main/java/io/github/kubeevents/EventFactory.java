package io.github.kubeevents;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Formattable;
import java.util.IllegalFormatException;
import java.util.Locale;
import java.util.MissingFormatArgumentException;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Validates an {@link EventSpec} and turns it into a {@link RecordedEvent} (client-go's {@code generateEvent}:
 * reference, type check, message), for every {@link EventRecorder} of this library. This is the caller's path:
 * it allocates little and does no I/O.
 *
 * <p>Stateless and thread-safe.
 */
final class EventFactory {

	static final Object[] NO_ARGS = new Object[0];

	private static final Logger logger = LoggerFactory.getLogger(EventRecorder.class);

	private EventFactory() {
	}

	/**
	 * The event of one recorder call.
	 * @param spec the call
	 * @param source the reporting component and host
	 * @param timestamp the recording time
	 * @param maxMessageBytes the largest message accepted, in UTF-8 bytes
	 * @return the event
	 * @throws IllegalArgumentException naming what makes the call invalid
	 */
	static <T> RecordedEvent build(EventSpec<T> spec, EventSource source, Instant timestamp, int maxMessageBytes) {
		if (spec.type() == null) {
			throw new IllegalArgumentException("event type is null (must be Normal or Warning)");
		}
		String reason = spec.reason();
		if (reason == null || reason.isEmpty()) {
			throw new IllegalArgumentException("reason is " + ((reason == null) ? "null" : "empty"));
		}
		if (spec.adapter() == null) {
			throw new IllegalArgumentException("no InvolvedObjectAdapter given");
		}
		T object = spec.regarding();
		if (object == null) {
			throw new IllegalArgumentException("involved object is null");
		}
		InvolvedObject regarding;
		try {
			regarding = spec.adapter().adapt(object);
		}
		catch (IllegalArgumentException ex) {
			throw ex;
		}
		catch (Exception ex) {
			// also checked exceptions an adapter throws undeclared (Kotlin, @SneakyThrows)
			throw new IllegalArgumentException("the InvolvedObjectAdapter failed on "
					+ object.getClass().getName() + ": " + ex, ex);
		}
		if (regarding == null) {
			throw new IllegalArgumentException("the InvolvedObjectAdapter returned null for "
					+ object.getClass().getName());
		}
		String message = format(spec.message(), spec.args());
		checkSize(message, maxMessageBytes);
		return new RecordedEvent(regarding, spec.related(), spec.type(), reason, emptyToNull(spec.action()), message,
				spec.annotations(), source, timestamp);
	}

	/**
	 * Formats like {@link String#format(Locale, String, Object...)} in {@link Locale#ROOT}, with a fast path for
	 * patterns made only of {@code %s} (of arguments that are not {@link Formattable}) and {@code %%}.
	 * @param message the message or pattern, {@code null} for none
	 * @param args the arguments, {@code null} to use the message verbatim
	 * @return the message
	 * @throws IllegalArgumentException for a bad pattern or missing arguments
	 */
	static String format(@Nullable String message, Object @Nullable [] args) {
		if (message == null) {
			return "";
		}
		if (args == null) {
			return message;
		}
		try {
			String fast = formatSimple(message, args);
			return (fast != null) ? fast : String.format(Locale.ROOT, message, args);
		}
		catch (IllegalFormatException ex) {
			throw new IllegalArgumentException("bad message format '" + message + "': " + ex, ex);
		}
		catch (IllegalArgumentException ex) {
			throw ex;
		}
		catch (Exception ex) {
			// an argument's toString or formatTo failed, possibly with an undeclared checked exception
			throw new IllegalArgumentException("could not format message '" + message + "': " + ex, ex);
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
					throw new MissingFormatArgumentException("Format specifier '%s'");
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

	private static void checkSize(String message, int maxMessageBytes) {
		// a UTF-8 character is at most 3 bytes per UTF-16 char, so short messages need no encoding
		if (message.length() > maxMessageBytes / 3) {
			int bytes = utf8Length(message);
			if (bytes > maxMessageBytes) {
				throw new IllegalArgumentException(
						"message is " + bytes + " UTF-8 bytes, more than the limit of " + maxMessageBytes);
			}
		}
	}

	static int utf8Length(String text) {
		return text.getBytes(StandardCharsets.UTF_8).length;
	}

	static void relatedIgnored(RuntimeException ex) {
		logger.debug("Could not reference the related object, recording without it: {}", ex.getMessage());
	}

	private static @Nullable String emptyToNull(@Nullable String value) {
		return (value == null || value.isEmpty()) ? null : value;
	}

}
