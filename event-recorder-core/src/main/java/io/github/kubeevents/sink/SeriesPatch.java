package io.github.kubeevents.sink;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The strategic-merge patch of an events.k8s.io/v1 Event's series (client-go's two-way diff between the event
 * without and with its series): {@code {"series":{"count":N,"lastObservedTime":"...Z"}}}. Over events.k8s.io/v1
 * only the series may change after create.
 *
 * <p>Immutable and thread-safe.
 *
 * @param count the series count, at least 2
 * @param lastObservedTime when the event last occurred
 */
public record SeriesPatch(int count, Instant lastObservedTime) {

	/**
	 * {@code MicroTime} as the API server parses it: UTC with exactly six fractional digits
	 * ({@code 2006-01-02T15:04:05.000000Z}); a plain RFC 3339 time is rejected.
	 */
	public static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
		.withZone(ZoneOffset.UTC);

	/**
	 * Checks the count.
	 * @throws IllegalArgumentException when {@code count < 2} (the server requires a series of at least 2)
	 */
	public SeriesPatch {
		if (count < 2) {
			throw new IllegalArgumentException("series.count must be at least 2, was " + count);
		}
	}

	/**
	 * The patch body as an ordered map, to be serialised with the client's JSON.
	 * @return {@code {"series":{"count":N,"lastObservedTime":"..."}}}
	 */
	public Map<String, Object> toMap() {
		Map<String, Object> series = new LinkedHashMap<>();
		series.put("count", this.count);
		series.put("lastObservedTime", MICRO_TIME.format(this.lastObservedTime));
		return Map.of("series", series);
	}

}
