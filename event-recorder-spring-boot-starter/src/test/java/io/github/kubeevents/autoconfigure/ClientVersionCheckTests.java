package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullSource;
import org.slf4j.LoggerFactory;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ClientVersionCheck}.
 */
@ExtendWith(OutputCaptureExtension.class)
class ClientVersionCheckTests {

	/** The client-java version of this build ({@code client-java.version} of the root pom, filtered in). */
	private static final String BUILD_VERSION = buildVersion();

	private static final int MAJOR = ClientVersionCheck.BUILT_WITH_MAJOR;

	private static final String OLDER = (MAJOR - 3) + ".0.0";

	private static final String WARNING = "The Kubernetes Java client on the classpath is " + OLDER + ", older than the "
			+ MAJOR + ".x kube-events was built and tested with";

	@TempDir
	Path tmp;

	private static String buildVersion() {
		try (InputStream in = ClientVersionCheckTests.class.getResourceAsStream("/client-java-build.properties")) {
			Properties properties = new Properties();
			properties.load(in);
			return properties.getProperty("version");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Test
	void builtWithMajorIsTheMajorOfTheClientThisBuildUses() {
		assertThat(BUILD_VERSION).matches("\\d+\\.\\d+\\.\\d+.*");
		assertThat(MAJOR).isEqualTo(Integer.parseInt(BUILD_VERSION.substring(0, BUILD_VERSION.indexOf('.'))));
	}

	@Test
	void olderMajorIsOlder() {
		assertThat(ClientVersionCheck.isOlder(OLDER)).isTrue();
		assertThat(ClientVersionCheck.isOlder((MAJOR - 1) + ".9.1")).isTrue();
	}

	static Stream<String> sameOrNewerOrUnknown() {
		return Stream.of(MAJOR + ".0.0", (MAJOR + 1) + ".1.0", String.valueOf(MAJOR), BUILD_VERSION, "garbage", "", ".1",
				"v" + OLDER);
	}

	@ParameterizedTest
	@NullSource
	@MethodSource("sameOrNewerOrUnknown")
	void sameOrNewerOrUnknownIsNotOlder(String version) {
		assertThat(ClientVersionCheck.isOlder(version)).isFalse();
	}

	@Test
	void readsTheVersionOfTheClientOnTheClasspath() {
		assertThat(ClientVersionCheck.clientVersion()).isEqualTo(BUILD_VERSION);
	}

	@Test
	void clientThisBuildUsesIsNotWarnedAbout(CapturedOutput output) {
		ClientVersionCheck.warnIfOlderThanBuiltWith();
		assertThat(output).doesNotContain("The Kubernetes Java client on the classpath is");
	}

	@Test
	void olderClientIsWarnedAboutOncePerJvm(CapturedOutput output) throws Exception {
		// an isolated class loader whose client-java-api says it is older, with its own SLF4J and Logback
		Path fake = this.tmp.resolve("fake");
		Path properties = fake.resolve("META-INF/maven/io.kubernetes/client-java-api/pom.properties");
		Files.createDirectories(properties.getParent());
		Files.writeString(properties, "groupId=io.kubernetes\nartifactId=client-java-api\nversion=" + OLDER + "\n");
		try (URLClassLoader loader = new URLClassLoader(new URL[] { fake.toUri().toURL(), location(ClientVersionCheck.class),
				location(ApiClient.class), location(LoggerFactory.class), location(ch.qos.logback.classic.Logger.class),
				location(ch.qos.logback.core.Appender.class) }, ClassLoader.getPlatformClassLoader())) {
			Method warn = loader.loadClass(ClientVersionCheck.class.getName()).getDeclaredMethod("warnIfOlderThanBuiltWith");
			warn.setAccessible(true);
			warn.invoke(null);
			warn.invoke(null);
		}
		assertThat(Pattern.compile(Pattern.quote(WARNING)).matcher(output.getOut()).results().count()).isOne();
		assertThat(output).contains(WARNING + "; another BOM (e.g. Spring Cloud Kubernetes') may manage"
				+ " io.kubernetes:client-java. Import io.kubernetes:client-java " + MAJOR + ".x or newer.");
	}

	private static URL location(Class<?> type) throws IOException {
		return type.getProtectionDomain().getCodeSource().getLocation();
	}

}
