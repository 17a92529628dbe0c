// The first command: what archetype:generate wrote, file by file, against the archetype's
// templates. Every template became one file with as many lines (a Velocity directive or a '##'
// comment would have eaten some), no placeholder was left, the Maven wrapper is the repository's
// own and executable, and the README starts with the project's two commands.
def project = new File(basedir, 'acme-fpga-driver')
def templateDir = new File(templates)
assert project.isDirectory() : 'nothing generated'

def generatedPath = { String template ->
  def path = template.replace('__artifactId__', 'acme-fpga-driver')
  ['src/main/java/', 'src/test/java/'].each { root ->
    if (path.startsWith(root)) {
      path = root + 'com/acme/' + path.substring(root.length())
    }
  }
  path
}
def unfiltered = ['mvnw', 'mvnw.cmd', '.gitignore', '.mvn/wrapper/maven-wrapper.properties',
                  'src/test/resources/simplelogger.properties'] as Set
def placeholders = ~/\$\{(groupId|artifactId|version|package|driverName|packageInPathFormat)\}|__artifactId__|@[a-z]+(\.[a-z]+)*\.version@|@project\.version@/
int files = 0
templateDir.eachFileRecurse(groovy.io.FileType.FILES) { template ->
  def relative = templateDir.toPath().relativize(template.toPath()).toString().replace('\\', '/')
  def generated = new File(project, generatedPath(relative))
  assert generated.isFile() : "${relative} was not generated as ${generatedPath(relative)}"
  def content = generated.getText('UTF-8')
  if (unfiltered.contains(relative)) {
    assert content == template.getText('UTF-8') : "${relative} was changed"
  } else {
    assert content.readLines().size() == template.getText('UTF-8').readLines().size() :
        "${relative}: the template's lines and the generated file's differ in number"
    def left = content =~ placeholders
    assert !left.find() : "${relative} still holds ${left.group()}"
  }
  files++
}
assert files > 40 : "only ${files} templates"

// The wrapper is the repository's.
['mvnw', 'mvnw.cmd', '.mvn/wrapper/maven-wrapper.properties'].each {
  assert new File(project, it).bytes == new File(repositoryRoot, it).bytes : "${it} differs from the repository's"
}
assert new File(project, 'mvnw').canExecute() : 'mvnw is not executable'

def readme = new File(project, 'README.md').readLines()
assert readme[0] == 'acme-fpga-driver'
def commands = readme.findAll { it.startsWith('./mvnw') }
assert commands.take(2)*.replaceAll(/\s+#.*/, '') ==
    ['./mvnw -B -q test-compile exec:exec@demo', './mvnw -B verify']
assert readme.indexOf(readme.find { it.startsWith('./mvnw') }) < 8 : 'the commands are not at the top'

// The generated code uses the SDK's public API only.
project.eachFileRecurse(groovy.io.FileType.FILES) { file ->
  if (file.name.endsWith('.java')) {
    def internal = file.readLines().find { it ==~ /import (static )?io\.github\.dra4j\..*\.internal\..*/ }
    assert internal == null : "${file.name} imports an SDK internal: ${internal}"
  }
}

def pom = new File(project, 'pom.xml').getText('UTF-8')
assert pom.contains('<groupId>com.acme</groupId>') && pom.contains('<version>0.1.0-SNAPSHOT</version>')
assert new File(project, 'src/main/java/com/acme/DeviceDriver.java').getText('UTF-8')
    .contains('DEFAULT_NAME = "fpga.acme.com";')

// The second command: the default package escapes the groupId as JLS 6.1 suggests ('-' becomes
// '_'; a part that starts with a digit or is a keyword gets '_'); the 'escaping' archetype IT
// builds a project in this package.
def vision = new File(basedir, 'vision-driver')
def main = new File(vision, 'src/main/java/io/_3d_vision/new_/DeviceDriver.java')
assert main.isFile() : 'not generated in package io._3d_vision.new_'
assert main.getText('UTF-8').startsWith('package io._3d_vision.new_;')
assert new File(vision, 'src/main/java/io/_3d_vision/new_/config/DriverConfig.java').getText('UTF-8')
    .startsWith('package io._3d_vision.new_.config;')
assert new File(vision, 'pom.xml').getText('UTF-8').contains('<groupId>io.3d-vision.new</groupId>')
return true
