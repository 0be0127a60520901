package io.github.kubeevents.introspect;

import org.jspecify.annotations.Nullable;

/**
 * How a broadcaster names the Events it writes ({@code EventBroadcaster.stats().naming()}): client-go's names
 * ({@code <object>.<hex nanos>}, a new Event after every restart) or, when the deterministic-names mode was asked
 * for, names derived from the occurrence stream, so restarts and replicas continue one Event.
 *
 * <p>Immutable and thread-safe.
 *
 * @param mode {@value #CLIENT_GO}, {@value #DETERMINISTIC}, or {@value #FALLBACK} when the mode was asked for and
 * at least one sink fell back to client-go's names
 * @param deterministicNamesRequested whether the mode was asked for
 * @param fallbacks how many sinks fell back to client-go's names (0 unless the mode was asked for)
 * @param fallbackReason why the latest fallback happened, e.g. the verb RBAC refuses, or {@code null}
 */
public record NamingStatus(String mode, boolean deterministicNamesRequested, long fallbacks,
		@Nullable String fallbackReason) {

	/** client-go's names. */
	public static final String CLIENT_GO = "client-go";

	/** Deterministic names. */
	public static final String DETERMINISTIC = "deterministic";

	/** Deterministic names asked for, client-go's names in use by at least one sink. */
	public static final String FALLBACK = "client-go-fallback";

	/** client-go's names, as asked. */
	public static final NamingStatus CLIENT_GO_NAMES = new NamingStatus(CLIENT_GO, false, 0, null);

}
