/* The name a server is known by, for the picker: a Tomcat lists as
 * org.apache.catalina.startup.Bootstrap, which nobody types when looking
 * for it. The main class (or jar) decides; the command line tells WildFly
 * from an older JBoss. Pure: the strings are the target's, only compared. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tui/picker.h"

struct known_server {
	const char *main;     /* the main class, or a jar's file name */
	const char *name;
};

static const struct known_server known_servers[] = {
	{ "org.apache.catalina.startup.Bootstrap", "Tomcat" },
	{ "org.eclipse.jetty.start.Main", "Jetty" },
	{ "org.eclipse.jetty.xml.XmlConfiguration", "Jetty" },
	{ "org.mortbay.start.Main", "Jetty" },
	{ "org.jboss.modules.Main", "JBoss" },
	{ "jboss-modules.jar", "JBoss" },
	{ "org.springframework.boot.loader.JarLauncher", "Spring Boot" },
	{ "org.springframework.boot.loader.WarLauncher", "Spring Boot" },
	{ "org.springframework.boot.loader.PropertiesLauncher", "Spring Boot" },
	{ "org.springframework.boot.loader.launch.JarLauncher", "Spring Boot" },
	{ "org.springframework.boot.loader.launch.WarLauncher", "Spring Boot" },
	{ "org.springframework.boot.loader.launch.PropertiesLauncher", "Spring Boot" },
};

/* A case-insensitive substring search (strcasestr is a GNU extension). */
static int holds(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return 1;
	return 0;
}

/* The main's last path component: a jar given by its path ("/opt/wildfly/jboss-modules.jar"). */
static const char *base_name(const char *main)
{
	const char *slash = strrchr(main, '/');
	return slash ? slash + 1 : main;
}

const char *gt_picker_server_name(const char *main, const char *command_line)
{
	const char *base = base_name(main);
	for (size_t i = 0; i < sizeof(known_servers) / sizeof(known_servers[0]); i++) {
		if (strcmp(main, known_servers[i].main) != 0 && strcmp(base, known_servers[i].main) != 0)
			continue;
		/* JBoss's modules start WildFly too; its home says which */
		if (strcmp(known_servers[i].name, "JBoss") == 0 && holds(command_line, "wildfly"))
			return "WildFly";
		return known_servers[i].name;
	}
	/* Jetty's own launcher: java -jar start.jar in a jetty home */
	if (strcmp(base, "start.jar") == 0 && holds(command_line, "jetty"))
		return "Jetty";
	return NULL;
}

void gt_picker_program(char *buf, size_t len, const char *main, const char *command_line)
{
	const char *program = main[0] ? main : command_line;
	const char *server = gt_picker_server_name(main, command_line);
	if (server)
		snprintf(buf, len, "%s (%s)", server, program);
	else
		snprintf(buf, len, "%s", program);
}
