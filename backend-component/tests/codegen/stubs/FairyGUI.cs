// The FairyGUI runtime API that generated C# uses, for compiling it in tests
// (backend-component/tests/codegen.rs); signatures as FairyGUI-unity declares them.
namespace FairyGUI.Utils
{
    public class XML
    {
    }
}

namespace FairyGUI
{
    using FairyGUI.Utils;

    public class GObject
    {
    }

    public class GImage : GObject
    {
    }

    public class GMovieClip : GObject
    {
    }

    public class GGraph : GObject
    {
    }

    public class GGroup : GObject
    {
    }

    public class GLoader : GObject
    {
    }

    public class GLoader3D : GObject
    {
    }

    public class GTextField : GObject
    {
    }

    public class GRichTextField : GTextField
    {
    }

    public class GTextInput : GTextField
    {
    }

    public class Controller
    {
    }

    public class Transition
    {
    }

    public class GComponent : GObject
    {
        public GObject GetChildAt(int index) { return null; }
        public GObject GetChild(string name) { return null; }
        public Controller GetControllerAt(int index) { return null; }
        public Controller GetController(string name) { return null; }
        public Transition GetTransitionAt(int index) { return null; }
        public Transition GetTransition(string name) { return null; }
        public virtual void ConstructFromXML(XML xml) { }
    }

    public class GButton : GComponent
    {
    }

    public class GLabel : GComponent
    {
    }

    public class GComboBox : GComponent
    {
    }

    public class GProgressBar : GComponent
    {
    }

    public class GSlider : GComponent
    {
    }

    public class GScrollBar : GComponent
    {
    }

    public class GList : GComponent
    {
    }

    public class GTree : GList
    {
    }

    public class UIPackage
    {
        public static GObject CreateObject(string pkgName, string resName) { return null; }
    }

    public class UIObjectFactory
    {
        public static void SetPackageItemExtension(string url, System.Type type) { }
    }
}
