package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import io.kubernetes.client.openapi.ApiClient;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bearer token that is read again when the API server refuses it: the authentication of an {@link ApiClient}
 * whose token lives elsewhere and changes (a token file, the in-cluster service account token, a kubeconfig
 * user's {@code tokenFile}, {@code exec} or {@code auth-provider} plugin), as an OkHttp application interceptor.
 * client-java's own authentications read such a token once ({@code ClientBuilder.kubeconfig}) or once a minute
 * ({@code TokenFileAuthentication}) and never after a 401, so every request between a rotation and the next read
 * failed.
 * <ul>
 * <li>Every request gets {@code Authorization: Bearer <token>} with the token read last.</li>
 * <li>A request answered 401 reads the token again and, when that gives another token, is sent once more with it
 * (its answer, a second 401 included, is the request's answer: the caller counts it as before). A token read
 * again that is the same, or a read that fails, leaves the 401 as the answer.</li>
 * <li>One read per 401, however many requests were refused at once: a request whose token was read again by
 * another thread in the meantime is repeated with that token without a read of its own.</li>
 * <li>With a period (token files: {@link #TOKEN_FILE_PERIOD}, client-go's), the token is also read again when the
 * period has passed since the last read, as client-go and client-java do for token files, so a rotation that
 * keeps the old token valid for a while costs no 401 at all.</li>
 * <li>A new token read after a 401 is logged once at INFO; a 401 the read cannot help (the same token, a failed
 * read) once at WARN, until the token changes.</li>
 * </ul>
 *
 * <p>{@link ClusterConfig} installs one on each client the starter builds (in-cluster and kubeconfig).
 *
 * <p>Thread-safe.
 */
final class RefreshingBearerToken implements Interceptor {

	/** How often a token file is read again without a 401: client-go's and client-java's minute. */
	static final Duration TOKEN_FILE_PERIOD = Duration.ofMinutes(1);

	private static final Logger logger = LoggerFactory.getLogger(RefreshingBearerToken.class);

	private final String source;

	private final Supplier<@Nullable String> reader;

	private final Duration period;

	private final Clock clock;

	private final ReentrantLock lock = new ReentrantLock();

	private volatile State state;

	/** The token a WARN about a useless read was logged for; guarded by {@link #lock}. */
	private @Nullable String warnedFor;

	/**
	 * @param source what the token is read from, for log lines (never the token itself)
	 * @param reader reads the token; {@code null}, blank or a {@link RuntimeException} is a failed read
	 * @param current the token in use now, or {@code null} to read it now
	 * @param period how long a token is used before it is read again without a 401; {@link Duration#ZERO} for
	 * after a 401 only
	 * @param clock the time of the periodic read
	 * @throws IllegalStateException when {@code current} is {@code null} and the first read fails
	 */
	RefreshingBearerToken(String source, Supplier<@Nullable String> reader, @Nullable String current, Duration period,
			Clock clock) {
		this.source = Objects.requireNonNull(source, "source");
		this.reader = Objects.requireNonNull(reader, "reader");
		this.period = Objects.requireNonNull(period, "period");
		this.clock = Objects.requireNonNull(clock, "clock");
		if (period.isNegative()) {
			throw new IllegalArgumentException("period must not be negative: " + period);
		}
		String token;
		try {
			token = (current != null && !current.isBlank()) ? current.trim() : read();
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException("cannot read the bearer token from " + source + ": " + ex.getMessage(), ex);
		}
		this.state = new State(token, 0, clock.instant());
	}

	/**
	 * A token file, such as the in-cluster {@code /var/run/secrets/kubernetes.io/serviceaccount/token}: read now,
	 * every {@link #TOKEN_FILE_PERIOD} and after a 401 (surrounding whitespace, a final newline, is not part of
	 * the token).
	 * @param file the file
	 * @return the authentication
	 * @throws IllegalStateException when the file cannot be read or is empty
	 */
	static RefreshingBearerToken fromFile(Path file) {
		Objects.requireNonNull(file, "file");
		return new RefreshingBearerToken("token file " + file, () -> readFile(file), null, TOKEN_FILE_PERIOD,
				Clock.systemUTC());
	}

	/**
	 * A token read by {@code reader}: now (unless {@code current} is given), after a 401 and, with a period, when
	 * the period has passed. For a kubeconfig's current user, the reader can be client-java's
	 * {@code KubeConfig.getCredentials().get("token")}, which reads its {@code tokenFile}, runs its {@code exec}
	 * plugin or refreshes its {@code auth-provider} each time; with {@link Duration#ZERO} the plugin runs after a
	 * 401 only.
	 * @param source what the token is read from, for log lines (never the token itself), e.g.
	 * {@code "kubeconfig /home/me/.kube/config"}
	 * @param reader reads the token; called by one thread at a time; {@code null}, blank or a
	 * {@link RuntimeException} is a failed read
	 * @param current the token in use now (e.g. what the client was built with), or {@code null} to read it now
	 * @param period how long a token is used before it is read again without a 401; {@link Duration#ZERO} for
	 * after a 401 only
	 * @return the token
	 * @throws IllegalStateException when {@code current} is {@code null} and the first read fails
	 */
	static RefreshingBearerToken of(String source, Supplier<@Nullable String> reader, @Nullable String current,
			Duration period) {
		return new RefreshingBearerToken(source, reader, current, period, Clock.systemUTC());
	}

	private static String readFile(Path file) {
		try {
			return Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read " + file + ": " + ex.getMessage(), ex);
		}
	}

	/**
	 * Makes {@code client} send its requests with this token: adds this interceptor to its OkHttp client (the
	 * clients derived from it later, with other timeouts or TLS settings, keep it). Any other bearer token the
	 * client sends is replaced.
	 * @param client the client, changed in place
	 * @return {@code client}
	 */
	ApiClient installOn(ApiClient client) {
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(this).build());
		return client;
	}

	/**
	 * What the token is read from.
	 * @return e.g. {@code "token file /var/run/secrets/kubernetes.io/serviceaccount/token"}
	 */
	String source() {
		return this.source;
	}

	@Override
	public Response intercept(Chain chain) throws IOException {
		Request request = chain.request();
		State used = current();
		Response response = chain.proceed(authorized(request, used.token()));
		if (response.code() != 401 || !replayable(request)) {
			return response;
		}
		State fresh = afterUnauthorized(used);
		if (fresh.token().equals(used.token())) {
			return response;
		}
		response.close();
		return chain.proceed(authorized(request, fresh.token()));
	}

	/** The token to send: the last one read, or a new one when the period has passed and no other thread reads. */
	private State current() {
		State now = this.state;
		if (!due(now) || !this.lock.tryLock()) {
			return now;
		}
		try {
			State latest = this.state;
			if (!due(latest)) {
				return latest;
			}
			try {
				String token = read();
				boolean changed = !token.equals(latest.token());
				this.state = new State(token, changed ? latest.generation() + 1 : latest.generation(),
						this.clock.instant());
				if (changed) {
					logger.debug("Read a new bearer token from {} (read every {})", this.source, this.period);
				}
			}
			catch (RuntimeException ex) {
				// keep the token in use; the next period (or a 401) tries again
				this.state = new State(latest.token(), latest.generation(), this.clock.instant());
				warnOnce(latest.token(), "Could not read the bearer token again from " + this.source + ": "
						+ ex.getMessage() + "; the token read before is used until a read succeeds");
			}
			return this.state;
		}
		finally {
			this.lock.unlock();
		}
	}

	private boolean due(State state) {
		return !this.period.isZero() && !this.clock.instant().isBefore(state.readAt().plus(this.period));
	}

	/**
	 * After a 401 to a request sent with {@code used}: the token read again, by this thread, or by another one
	 * after its own 401 (or a periodic read that found a new token) since {@code used} was taken.
	 */
	private State afterUnauthorized(State used) {
		this.lock.lock();
		try {
			State latest = this.state;
			if (latest.generation() != used.generation()) {
				return latest;
			}
			String token;
			try {
				token = read();
			}
			catch (RuntimeException ex) {
				this.state = new State(latest.token(), latest.generation() + 1, this.clock.instant());
				warnOnce(latest.token(), "The Kubernetes API server refused the bearer token (HTTP 401) and it could"
						+ " not be read again from " + this.source + ": " + ex.getMessage()
						+ "; requests keep failing until a read succeeds");
				return this.state;
			}
			this.state = new State(token, latest.generation() + 1, this.clock.instant());
			if (token.equals(latest.token())) {
				warnOnce(token, "The Kubernetes API server refused the bearer token (HTTP 401) and " + this.source
						+ " still gives the same token; requests keep failing until it changes");
			}
			else {
				this.warnedFor = null;
				logger.info("The Kubernetes API server refused the bearer token (HTTP 401): read a new token from {};"
						+ " the refused requests are sent once more with it", this.source);
			}
			return this.state;
		}
		finally {
			this.lock.unlock();
		}
	}

	/** One WARN per token: a 401 storm, or a file gone for good, does not flood the log. */
	private void warnOnce(String token, String message) {
		if (token.equals(this.warnedFor)) {
			logger.debug("{}", oneLine(message));
			return;
		}
		this.warnedFor = token;
		logger.warn("{}", oneLine(message));
	}

	/**
	 * The message on one log line: its paths and exception texts come from files and plugins, so a control
	 * character (a line break, an ANSI escape) is written as {@code \}{@code uXXXX} instead of ending the record.
	 */
	private static String oneLine(String message) {
		@Nullable StringBuilder line = null;
		for (int i = 0; i < message.length(); i++) {
			char c = message.charAt(i);
			if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
				if (line == null) {
					line = new StringBuilder(message.length() + 16).append(message, 0, i);
				}
				line.append(String.format("\\u%04x", (int) c));
			}
			else if (line != null) {
				line.append(c);
			}
		}
		return (line != null) ? line.toString() : message;
	}

	/** Reads the token: trimmed, never empty, nothing an HTTP header cannot carry. */
	private String read() {
		String token = this.reader.get();
		if (token == null || token.isBlank()) {
			throw new IllegalStateException(this.source + " holds no bearer token");
		}
		token = token.trim();
		for (int i = 0; i < token.length(); i++) {
			char c = token.charAt(i);
			if (c < 0x20 || c > 0x7e) {
				throw new IllegalStateException(this.source + " holds no usable bearer token (character " + i
						+ " cannot be sent in an HTTP header)");
			}
		}
		return token;
	}

	private static Request authorized(Request request, String token) {
		return request.newBuilder().header("Authorization", "Bearer " + token).build();
	}

	/** A request whose body can be sent twice (the recorder's always can). */
	private static boolean replayable(Request request) {
		RequestBody body = request.body();
		return body == null || (!body.isOneShot() && !body.isDuplex());
	}

	/**
	 * The token in use.
	 * @param token the token
	 * @param generation counts the reads after a 401 and the periodic reads that found a new token: a refused
	 * request whose generation is no longer current was refused a token that was read again since, and is
	 * repeated with the current one without a read of its own
	 * @param readAt when it was read last
	 */
	private record State(String token, long generation, Instant readAt) {

		@Override
		public String toString() {
			// never the token
			return "State[generation=" + this.generation + ", readAt=" + this.readAt + "]";
		}

	}

}
