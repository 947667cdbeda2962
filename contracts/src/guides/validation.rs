//! Guides of the codes validation reports about a project.

use super::GuideText;

pub(super) const MISSING_SOURCE: GuideText = GuideText {
    meaning: "A file the project declares does not exist at its path: `package.xml` lists \
            a resource (an image, a sound, a component's XML, …) whose file is not in the \
            package folder, a package folder has no `package.xml` with that exact name, or a \
            settings file is there only with other letter case. A resource file that exists \
            under exactly one other letter case is read from there (`source_case_mismatch`); \
            when several files differ from the declared path only in letter case \
            (`assets/Pkg/Bag/icon.png` and `assets/Pkg/bag/icon.png`, which git can hold \
            side by side), the message names them all: which one the FairyGUI editor on \
            Windows or macOS uses depends on the disk, so none is read here. A settings file \
            or `package.xml` with other letter case (`settings/publish.json` for \
            `settings/Publish.json`) is named too and not read. The FairyGUI editor shows a \
            resource whose file is really missing in the library but cannot display it. Here \
            the resource stays in the outline: an asset without its bytes (so it cannot be \
            renamed, moved, removed or read), a component with an empty stage.",
    confirm: "`openfairygui_backend_validate_session` gives `packageId`, `resourceId` and \
            `sourcePath`, the expected file relative to the project, and the message names \
            the files that differ only in letter case when there are any.",
    fix: "When the message names files with other letter case, rename the one that is \
            meant to the declared spelling and give the others names of their own (or merge \
            the folders), then close and reopen the session; do not remove the resource or \
            the files, which are fine. Otherwise ask the user to restore the missing file at \
            that path (from version control or a backup), then close and reopen the session. \
            If the resource is no longer wanted, the user can remove it in the FairyGUI \
            editor after checking that nothing uses it. Do not create a placeholder file \
            under that name.",
};

pub(super) const SOURCE_CASE_MISMATCH: GuideText = GuideText {
    meaning: "A resource's file is not at the path the project declares, but exactly one \
            file differs from it only in letter case, in a folder or the file name (the \
            project says `/Bag/`, the disk holds `assets/Pkg/bag/`, as projects made on \
            Windows or macOS often do). The FairyGUI editor there reads that file, and so \
            does this server: validation, rendering and publishing use it, and a save writes \
            it back where it was read, never into a second folder. Case-sensitive disks and \
            tools (Linux build machines, some engines' loaders of the sources) do not find it.",
    confirm: "`openfairygui_backend_validate_session` gives the resource, `sourcePath` (the \
            declared path) and, in the message, the path found on disk and what to rename.",
    fix: "Nothing is lost as it is. To make the project work on case-sensitive disks, \
            rename the folder or file as the message says (when both spellings of a folder \
            exist, move the files of one into the other), in the FairyGUI editor or with git \
            (`git mv`), then close and reopen the session.",
};

pub(super) const UNREADABLE_SOURCE: GuideText = GuideText {
    meaning: "A file or folder of the project exists but could not be read (permissions, \
            a file locked by another program, a disk error). What it holds is unknown, so the \
            validation report is `incomplete` and the session's `uamFidelity` is \
            `unsupported` (it could not be written back faithfully).",
    confirm: "`openfairygui_backend_validate_session` shows the `sourcePath` and the \
            system's error text; `openfairygui_backend_get_session` shows `uamFidelity`.",
    fix: "Ask the user to make the file readable (check its permissions, close programs \
            that lock it), then close and reopen the session. The file itself needs no \
            change.",
};

pub(super) const CORRUPT_SOURCE: GuideText = GuideText {
    meaning: "An asset file exists but its content cannot be used: it is empty, a PNG or \
            JPEG is damaged or cut short, a movie clip's `.jta` does not parse, an SVG is not \
            well-formed XML or has no `<svg>` root, or the file is a Git LFS pointer (a small \
            text file standing in for content that was never fetched). An SVG that is \
            well-formed but holds content this server does not read for safety (a DTD, \
            scripts, external references) is not corrupt: it is reported as \
            `decode_capability_unavailable`.",
    confirm: "The finding's message says what failed and `sourcePath` names the file. \
            Opening the file in an image viewer, or the resource in the FairyGUI editor, \
            usually shows the damage; a Git LFS pointer starts with `version https://git-lfs`. \
            `openfairygui_backend_read_resource_bytes` returns the bytes as read.",
    fix: "For a Git LFS pointer, run `git lfs pull`: the real file arrives and nothing \
            else changes. For a damaged PNG or JPEG, use `replaceResourceBytes` with a good \
            copy of the same picture (from the artist, version control or a backup), since the \
            file is corrupt; the resource keeps its id, so everything using it keeps working. \
            For a broken SVG, ask for a fresh export. For a movie clip, re-import it in the \
            FairyGUI editor.",
};

pub(super) const DECODE_CAPABILITY_UNAVAILABLE: GuideText = GuideText {
    meaning: "An image could not be checked here: its format is one this server cannot \
            decode (only PNG, JPEG and SVG can, so a `.gif`, `.bmp`, `.tga` or an image \
            without an extension is not looked into), or it is an SVG holding content this \
            server does not read for safety (a DTD, scripts, embedded or external content, \
            animation). Nothing is known to be wrong with it, but the validation report is \
            `incomplete` instead of `valid`. This is a warning, not an error.",
    confirm: "The finding's `sourcePath` shows the file and its extension, and the message \
            says why it was not checked; the report's `complete` is false.",
    fix: "Nothing needs to change if the image shows correctly in the FairyGUI editor; \
            tell the user this file could not be checked. A CI job that requires `valid` \
            should treat this as a known gap rather than change the asset.",
};

pub(super) const INVALID_PROJECT_XML: GuideText = GuideText {
    meaning: "The project's `.fairy` file (the project description: id, engine type and \
            version) is not valid XML, its root element is not `<projectDescription>`, or it \
            is a Git LFS pointer whose content was never fetched. When packages exist beside \
            it the project still opens, with an empty project id and `projectType` -1 \
            (unknown), so the rest can be inspected.",
    confirm: "The finding's `sourcePath` is the `.fairy` file and its message gives the \
            parser's error and position, or names the Git LFS pointer. \
            `openfairygui_backend_get_project_outline` then shows an empty `projectId`.",
    fix: "For a Git LFS pointer, run `git lfs pull` in the repository. Otherwise ask the \
            user to restore the file from version control, or to repair it at the reported \
            position (it is a single element such as `<projectDescription id=\"…\" \
            type=\"Unity\" version=\"3.0\"/>`, and keeping its original id matters), then \
            reopen the session.",
};

pub(super) const INVALID_PACKAGE_XML: GuideText = GuideText {
    meaning: "A package's `package.xml` (its folders, resources and publish settings) is \
            not valid XML, or its root element is not `<packageDescription>`. The package \
            still opens, but empty: none of its resources are in the outline, and references \
            to them from other packages look broken.",
    confirm: "The finding's `sourcePath` is `assets/<Package>/package.xml`, with the \
            parser's error. In the outline the package has no resources.",
    fix: "Ask the user to restore the file from version control, or to repair it at the \
            reported position (often a leftover merge-conflict marker or a write cut short), \
            then reopen the session. Do not recreate it from scratch: it holds the ids that \
            other packages use.",
};

pub(super) const INVALID_BRANCH_PACKAGE_XML: GuideText = GuideText {
    meaning: "A `package_branch.xml` (in `assets_<branch>/<Package>/`, listing that \
            branch's variants of the package's resources) is not valid XML or has the wrong \
            root element. That branch's variants of the package are not read.",
    confirm: "The finding's `sourcePath` names the file, with the parser's error.",
    fix: "Ask the user to restore the file from version control or repair it at the \
            reported position, then reopen the session.",
};

pub(super) const INVALID_COMPONENT_XML: GuideText = GuideText {
    meaning: "As an error: a component's XML file is not valid XML, is a Git LFS pointer, \
            or holds an element FairyGUI does not know. A component whose file does not parse \
            opens with an empty stage; an unknown display-list element or gear element is \
            skipped (that node or gear is not in the outline), and the rest of the component \
            is read. As a warning: the file holds a valid element this server does not model, \
            the legacy `<swf>` node (Flash content) the FairyGUI editor still writes. It stays \
            in the file as it is, the project stays valid, its id stays taken and relations, \
            actions and transitions may name it; it is listed in the component's \
            `unsupportedNodes`, not in `displayList`, and cannot be edited here.",
    confirm: "The finding's `sourcePath` names the component's file; the message quotes \
            the element or the parser's error, and `nodeId` names the node when known. Open \
            the component in the FairyGUI editor to compare. \
            `openfairygui_backend_query_entity` with kind `component` lists \
            `unsupportedNodes`.",
    fix: "For a Git LFS pointer, run `git lfs pull`. For broken XML, ask the user to \
            restore the file from version control or repair it at the reported position, then \
            reopen the session. An unknown element may come from a newer editor version or a \
            plugin, and a `<swf>` node is valid: leave the file as it is and edit that part in \
            the FairyGUI editor.",
};

pub(super) const INVALID_PROJECT_VALUE: GuideText = GuideText {
    meaning: "A value in a project file or the model breaks FairyGUI's rules for its type. \
            Errors: a boolean that is not true, false, 1 or 0 (also the `input` and `treeView` \
            flags that pick a node's kind, and a folder's `favorite`); a number that is not \
            finite, or not whole where it must be; a list with the wrong number of parts (such \
            as `xy=\"10\"` or a `scale9grid` of three numbers); a part of a gear's page value \
            that is not a number or a boolean; an unknown name (a blend mode, an enumeration \
            such as `align`); alpha outside 0..1; a negative size; rotation, scale, skew or \
            pivot beyond the 32-bit float FairyGUI publishes them as; a folder atlas that is \
            not a slot number; or an image quality outside 0..100. Where the model cannot hold \
            such a value, the session reads the default in its place (colours and blend modes \
            are kept as written). Warnings, which need no fix and stay in the file as they \
            are: a value the FairyGUI editor itself writes for an unset attribute \
            (`level=\"undefined\"`), an engine type in the `.fairy` file this server does not \
            know (`projectTypeName` keeps it, `projectType` is -1), a transition action this \
            server does not know (`actionTypeName` keeps it, `actionType` is 16), and package \
            publish settings the editor may not publish as intended.",
    confirm: "The finding's `path`, `sourcePath` and `nodeId` locate the value, and the \
            message quotes it. Look at that element in the file, or at the node in the \
            FairyGUI editor.",
    fix: "For an error, ask the user to correct the value in the FairyGUI editor or in the \
            file, then reopen the session; or set the right value with a transaction where one \
            covers it (`setDisplayNodeProps`, `updateGear`, `updatePackageSettings`). A \
            warning needs no fix; leave the value as written.",
};

pub(super) const DESKTOP_INCOMPATIBLE_GEOMETRY: GuideText = GuideText {
    meaning: "A position, size, minimum or maximum size, margin or gear position is a \
            whole number too large for a 32-bit integer (beyond about ±2.1 billion). The \
            FairyGUI editor stores geometry as 32-bit integers and cannot load such a value; \
            it usually comes from a script or a hand edit gone wrong.",
    confirm: "The finding's `path` (such as `…displayList[0].position`), `nodeId` and \
            `sourcePath` locate it; `openfairygui_backend_query_entity` on the node shows the \
            value.",
    fix: "Set a sensible value: `setDisplayNodeProps` with a new `position` or `size` for \
            a node, `setComponentProps` for a component's size, `updateGear` for a gear; or \
            ask the user to fix it in the file.",
};

pub(super) const INVALID_SETTINGS_JSON: GuideText = GuideText {
    meaning: "A file in `settings/` (Publish.json, Common.json, Adaptation.json, \
            CustomProperties.json or i18n.json) is not valid JSON, is not UTF-8 text, is not a \
            JSON object, or is a Git LFS pointer: an error, and that file's settings are left \
            out of the project settings the session shows; the rest of the project opens \
            normally. As a warning, a field of the settings has the wrong type (text where the \
            editor expects a number, for example): the editor ignores it, and it is kept as \
            written.",
    confirm: "The finding's `sourcePath` names the file and the message gives the parser's \
            error or the field and the type it should have.",
    fix: "For a Git LFS pointer, run `git lfs pull`. For broken JSON, ask the user to \
            restore the file from version control or repair it, then reopen the session; do \
            not paper over it with `updateProjectSettings`, since the session does not know \
            what the file held. A mistyped field can be corrected with `updateProjectSettings` \
            (query the settings, change that field, send them back), or left as it is.",
};

pub(super) const PATH_COLLISION: GuideText = GuideText {
    meaning: "Two resources would use the same file: their paths are equal, or differ only \
            in letter case (such as `Icon.png` and `icon.png`), which on Windows and macOS \
            disks is the same file, so one would overwrite the other. Also two packages or two \
            folders whose names differ only in letter case. An entry repeated verbatim in \
            `package.xml` is not a collision but one duplicate entry \
            (`duplicate_resource_id`).",
    confirm: "The finding names both; the outline shows their names and paths.",
    fix: "Rename one of them so the names differ by more than letter case: \
            `renameResource` for a resource, `renamePackage` for a package, \
            `renameResourceFolder` for an empty folder, or in the FairyGUI editor. Keep both \
            files.",
};

pub(super) const UNSAFE_PATH: GuideText = GuideText {
    meaning: "A name or path cannot be used safely on disk: absolute, containing `..`, \
            `\\` or `:`, with leading or trailing spaces or a trailing dot, a Windows device \
            name (con, nul, com1, …), a resource named like `package.xml`, or a folder path \
            not written as `/a/b/`. When `package.xml` declares a resource with such a name or \
            path, the resource is skipped (it is not in the outline), so nothing outside the \
            project can be touched.",
    confirm: "The finding's `path` and message name the package, folder, branch or \
            resource and quote the bad value.",
    fix: "Rename it to a plain name: in the FairyGUI editor, or with `renameResource`, \
            `renamePackage`, `renameBranch` or `renameResourceFolder` when the item is in the \
            outline. The files themselves need no other change.",
};

pub(super) const DANGLING_RESOURCE_REFERENCE: GuideText = GuideText {
    meaning: "Something points at a resource that does not exist or is of the wrong kind: \
            an image node at a missing image, a component instance at a missing component, a \
            loader's `url` or a list item at nothing, a text node's font at something that is \
            not a font, a `ui://` address in text, gears or transitions that resolves to \
            nothing, a font's texture or a skeleton's files. The FairyGUI editor shows such \
            references as missing content. A reference in the project settings (default scroll \
            bars, tooltip, click sound, font) that does not resolve is a warning: the editor \
            ignores it.",
    confirm: "The finding's `path`, `packageId`, `resourceId` (the component that refers) \
            and `nodeId` locate the reference, and the message quotes the `ui://` address or \
            the ids and names the package by id and name. \
            `openfairygui_backend_get_project_outline` shows whether the target exists under \
            another id or in another package.",
    fix: "Re-point the reference at the right resource (`setDisplayNodeProps` for a node, \
            `setComponentProps` for a component property, `updateProjectSettings` for a \
            setting), or clear it. If the target was deleted by mistake, the user can restore \
            it and reopen the session.",
};
