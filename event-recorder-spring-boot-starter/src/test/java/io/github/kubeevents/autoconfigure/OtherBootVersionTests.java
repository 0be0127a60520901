package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The other supported Spring Boot line is named in one place, the root pom's {@code spring-boot.other.version}:
 * the profile {@code other-boot} and {@code .ci/run} take it from there, and the README's "Run the tests" states
 * the same version.
 */
class OtherBootVersionTests {

	private static final Path ROOT = Path.of("..");

	private static String otherBootVersion() throws IOException {
		Matcher matcher = Pattern.compile("<spring-boot\\.other\\.version>([^<]+)</spring-boot\\.other\\.version>")
			.matcher(Files.readString(ROOT.resolve("pom.xml")));
		assertThat(matcher.find()).as("spring-boot.other.version in the root pom").isTrue();
		return matcher.group(1);
	}

	@Test
	void theProfileAndCiTakeTheVersionFromThePom() throws IOException {
		String pom = Files.readString(ROOT.resolve("pom.xml"));
		assertThat(pom).containsPattern(
				"<id>other-boot</id>\\s*(<!--.*?-->\\s*)?<properties>\\s*<spring-boot\\.version>\\$\\{spring-boot\\.other\\.version}"
						+ "</spring-boot\\.version>");
		String ci = Files.readString(ROOT.resolve(".ci/run"));
		assertThat(ci).contains("spring-boot.other.version").contains("-P other-boot");
		assertThat(ci.lines().filter((line) -> !line.trim().startsWith("#")))
			.as(".ci/run names no Boot version of its own")
			.noneMatch((line) -> line.matches(".*\\b4\\.\\d+\\.\\d+\\b.*"));
	}

	@Test
	void theReadmeStatesThePomsVersion() throws IOException {
		assertThat(Files.readString(ROOT.resolve("README.md")))
			.contains("then the unit tests again\non Spring Boot " + otherBootVersion() + " (`spring-boot.other.version`");
	}

}
